import type { FastifyPluginAsync } from 'fastify';
import { registerSchoolDataRoutes } from '../school-data/index.js';

/**
 * `/api/organizator/*`: a room organizator's lists, registration and student cards, within the
 * classes assigned to them and every class of a building assigned to them. The calls are those of
 * the coordinator (school-data), scoped to the rooms.
 */
export const organizatorRoutes: FastifyPluginAsync = async (app) => {
  registerSchoolDataRoutes(app, 'organizator');
};

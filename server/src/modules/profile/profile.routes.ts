import type { FastifyPluginAsync } from 'fastify';
import { guestProfileRoutes } from './guest.routes.js';

/**
 * `/api/Profile/*`. The guest part lives in guest.routes.ts; the expert part (Profile/expert/*) is
 * registered here by its own file when it is built (until then those calls answer 501).
 */
export const profileRoutes: FastifyPluginAsync = async (app) => {
  await app.register(guestProfileRoutes);
};

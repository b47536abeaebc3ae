import type { FastifyPluginAsync } from 'fastify';
import { expertProfileRoutes } from './expert.routes.js';
import { guestProfileRoutes } from './guest.routes.js';

/**
 * `/api/Profile/*`: the guest part in guest.routes.ts, the expert part in expert.routes.ts.
 */
export const profileRoutes: FastifyPluginAsync = async (app) => {
  await app.register(guestProfileRoutes);
  await app.register(expertProfileRoutes);
};

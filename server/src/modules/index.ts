import type { FastifyPluginAsync } from 'fastify';

/** Every API area, each a Fastify plugin in its own folder. Calls not built yet answer 501. */
export const modules: FastifyPluginAsync[] = [];

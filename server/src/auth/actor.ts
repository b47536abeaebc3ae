import type { FastifyRequest } from 'fastify';
import { authOf } from './access.js';
import type { AuthContext } from './types.js';

/**
 * Who makes a call and from where: what a service decides by (roles, school, bound work) and what
 * its audit records (user, address). The one shape every module's services take; a module that
 * needs more (a device, a staff scope) extends it.
 */
export interface Actor {
  auth: AuthContext;
  ip: string | null;
}

/** The actor of a request that passed the access layer (401 without a session). */
export function actorOf(req: FastifyRequest): Actor {
  return { auth: authOf(req), ip: req.ip ?? null };
}

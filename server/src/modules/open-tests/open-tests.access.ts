/* Record-level rule of guests' attempts at open tests (beside the routes; docs/open-tests.md). */
import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/access.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './open-tests.repo.js';

/** An attempt named by id: the caller's own only (403 for another guest's, 404 for no attempt). */
export function ownAttempt(getId: (req: FastifyRequest) => number): ScopeRule {
  return async (req, auth) => {
    const owner = await repo.attemptOwner(req.server.ctx.db, getId(req));
    if (owner === null) throw notFound('No such attempt');
    return owner === auth.userId;
  };
}

/* Record-level rules of worker tests: which the caller may see or change (beside the routes). */
import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './worker.repo.js';
import * as service from './worker.service.js';

/** A worker test the caller may see (`canSee`) or change (`canEdit`); 404 when there is none. */
export function workerTestInScope(
  getId: (req: FastifyRequest) => number | undefined,
  allowed: (auth: AuthContext, schoolId: number | null) => boolean,
): ScopeRule {
  return async (req, auth) => {
    const id = getId(req);
    if (id === undefined) return true;
    const schoolId = await repo.workerTestSchool(req.server.ctx.db, id);
    if (schoolId === undefined) throw notFound('No such worker test');
    return allowed(auth, schoolId);
  };
}

/** generateActivationCode: a visible worker test and a worker of the coordinator's own school. */
export const codeInScope: ScopeRule = async (req, auth) => {
  const { workerTestId, workerId } = req.query as { workerTestId: number; workerId: number };
  if (!(await workerTestInScope(() => workerTestId, service.canSee)(req, auth))) return false;
  const worker = await repo.findWorker(req.server.ctx.db, workerId);
  if (!worker) throw notFound('No such worker');
  return hasRole(auth, 'admin') || (auth.schoolId !== null && worker.schoolId === auth.schoolId);
};

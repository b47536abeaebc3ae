import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/access.js';
import { contentScope } from './authoring.access.js';
import { findContainer } from './containers.repo.js';

/*
 * Who may keep html containers: whoever may edit content (`canEditContent`). A container belongs to
 * no subject (tasks of any subject may use it), so it is content of no subject: today the admin.
 * An unknown container is 404 for a caller who would otherwise have to be asked about it.
 */
const idOf = (req: FastifyRequest) => (req.params as { id: number }).id;

export const containerScope: ScopeRule = contentScope(async (req) =>
  (await findContainer(req.server.ctx.db, idOf(req))) ? null : undefined,
);

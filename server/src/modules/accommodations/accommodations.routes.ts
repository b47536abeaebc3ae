import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WORKER_LIST_PAGE_SIZE } from '@attesta/contract';
import { authOf, contractRoute } from '../../auth/access.js';
import * as service from './accommodations.service.js';

/**
 * `/api/accommodations/*` (issue 14, items 2 and 6; docs/accommodations.md): students' and workers'
 * accommodations profiles, set by admins for any school and by coordinators for their own. HTTP only.
 */
const tags = ['accommodations'];

const actor = (req: FastifyRequest): service.Actor => {
  const auth = authOf(req);
  return {
    userId: auth.userId,
    ip: req.ip ?? null,
    // The route's roles leave admins and coordinators; a coordinator without a school reaches none.
    ownSchoolId: auth.roles.includes('admin') ? null : (auth.schoolId ?? 0),
  };
};

const SCOPE = '403 for a student of another school (a coordinator reaches their own school only); ';

export const accommodationRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('GET /api/accommodations/students/{studentId}', {
      summary: 'A student’s accommodations profile',
      description: `\`accommodations\` null: none. ${SCOPE}404 for an unknown or deleted student.`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.getStudentAccommodations(ctx, actor(req), req.params.studentId),
  });

  app.route({
    ...contractRoute('PUT /api/accommodations/students/{studentId}', {
      summary: 'Set or clear a student’s accommodations profile',
      description:
        'The whole profile, or null to clear it (a profile that changes nothing is stored as none). ' +
        'Works started afterwards get the extra time; a running work keeps its deadline. Audited ' +
        `(\`student.accommodations\`). 400 \`validation_failed\` for a field out of range; ${SCOPE}` +
        '404 for an unknown or deleted student.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) =>
      service.setStudentAccommodations(ctx, actor(req), req.params.studentId, req.body.accommodations),
  });

  app.route({
    ...contractRoute('PUT /api/accommodations/students', {
      summary: 'Set or clear the same accommodations profile for many students',
      description:
        'All or nothing: every student must exist and be within reach, else nothing changes. Each ' +
        `student's change is audited (\`student.accommodations\`). 400 \`validation_failed\` for a field ` +
        `out of range, no students, too many or one twice; ${SCOPE}404 when a student is unknown or deleted.`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.setManyAccommodations(ctx, actor(req), req.body),
  });

  const WORKER_SCOPE =
    '403 for a worker of another school or of none (a coordinator reaches their own school only); ';

  app.route({
    ...contractRoute('GET /api/accommodations/workers', {
      summary: 'Workers with whether each has an accommodations profile',
      description:
        `A page of workers (${WORKER_LIST_PAGE_SIZE} unless \`pageSize\` says) by surname, of one school (\`schoolId\`) or all for an ` +
        "admin; a coordinator's list is always their own school's (403 for another `schoolId`).",
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listWorkers(ctx, actor(req), req.query),
  });

  app.route({
    ...contractRoute('GET /api/accommodations/workers/{workerId}', {
      summary: 'A worker’s accommodations profile',
      description: `\`accommodations\` null: none. ${WORKER_SCOPE}404 for an unknown worker.`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.getWorkerAccommodations(ctx, actor(req), req.params.workerId),
  });

  app.route({
    ...contractRoute('PUT /api/accommodations/workers/{workerId}', {
      summary: 'Set or clear a worker’s accommodations profile',
      description:
        'As for a student: the whole profile, or null to clear it. Worker tests started afterwards get ' +
        'the extra time, rest breaks and the large-print form. Audited (`worker.accommodations`). 400 ' +
        `\`validation_failed\` for a field out of range; ${WORKER_SCOPE}404 for an unknown worker.`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) =>
      service.setWorkerAccommodations(ctx, actor(req), req.params.workerId, req.body.accommodations),
  });

  app.route({
    ...contractRoute('PUT /api/accommodations/workers', {
      summary: 'Set or clear the same accommodations profile for many workers',
      description:
        'All or nothing: every worker must exist and be within reach, else nothing changes. Each ' +
        "worker's change is audited (`worker.accommodations`). 400 `validation_failed` for a field out " +
        `of range, no workers, too many or one twice; ${WORKER_SCOPE}404 when a worker is unknown.`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.setManyWorkerAccommodations(ctx, actor(req), req.body),
  });
};

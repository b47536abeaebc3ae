import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import * as service from './catalog.service.js';

const tags = ['exam-test'];
const idOf = (req: FastifyRequest) => (req.params as { id: number }).id;

/** The subject test catalogue of `/api/exam/test/*` (the exam work lifecycle lives in its own plugin). */
export const examCatalogRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('GET /api/exam/test/subjecttest/{id}', {
      summary: 'Subject test summary',
      tags,
      errors: [400, 401, 404],
    }),
    handler: (req) => service.subjectTest(db, req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/description/{id}', {
      summary: 'Subject test description (sanitized html)',
      tags,
      errors: [400, 401, 404],
    }),
    handler: (req) => service.description(db, req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/subjecttesthtml/{id}', {
      summary: 'Subject test instruction (sanitized html)',
      tags,
      errors: [400, 401, 404],
    }),
    handler: (req) => service.instruction(db, req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/testgroups', { summary: 'Test groups', tags, errors: [401] }),
    handler: () => service.testGroups(db),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/subjecttests/{testGroupId}/{parallel}', {
      summary: 'Subject tests of a test group offered for a parallel (grade 0–11)',
      tags,
      errors: [400, 401],
    }),
    handler: (req) => service.subjectTestsOfGroup(db, req.params.testGroupId, req.params.parallel),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/parallels', {
      summary: 'Parallels a subject test is offered for',
      description: 'Query `TestId` (required): the subject test id.',
      tags,
      errors: [400, 401, 404],
    }),
    handler: (req) => service.parallelsOf(db, req.query.TestId),
  });

  app.route({
    ...contractRoute(
      'GET /api/exam/test/variant/{id}/taskTextHtml',
      {
        summary: 'The whole variant as one sanitized html document (printing), without keys',
        description:
          '`text/html`: numbered tasks with their options, items and blanks and an answer line. ' +
          'Participants: only their own current variant. Coordinators and organizators: variants of ' +
          'tests of a diagnostic that includes their school, once the diagnostic has started.',
        tags,
        errors: [400, 401, 403, 404],
      },
      service.printableVariantInScope(idOf),
    ),
    handler: async (req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(await service.variantDocument(db, req.params.id)),
  });
};

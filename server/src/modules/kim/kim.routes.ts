import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { containerLinkSigner, withSignedLinks } from './container-links.js';
import * as service from './kim.service.js';

const tags = ['kim'];
const idOf = (req: FastifyRequest) => (req.params as { id: number }).id;
const containerIdOf = (req: FastifyRequest) => (req.params as { containerId: number }).containerId;

/** Security headers of a container resource; they replace the app's CSP for this reply only. */
function sendResource(reply: FastifyReply, resource: { mime: string; data: Buffer }) {
  return reply
    .header('content-security-policy', service.CONTAINER_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-cache')
    .type(resource.mime)
    .send(resource.data);
}

/** What the three resource routes say about themselves besides their summary. */
const resourceDocs = {
  tags,
  errors: [400, 401, 403, 404],
  description:
    'The stored bytes with their MIME type, served with a sandboxing Content-Security-Policy ' +
    '(`sandbox allow-scripts`, no `allow-same-origin`) and `X-Content-Type-Options: nosniff`. ' +
    'Resources are looked up by their exact stored path. Participants: only containers of the ' +
    'tasks of their own current variant. Instead of a session, the request may present the ' +
    '`sig` of the signed `url` from GET /api/KimHtmlContainer/{id} (a sandboxed frame sends no ' +
    'cookie): it must be genuine, unexpired, for this container version and its holder must still ' +
    'see the container, else 403 `bad_signature`. Html and css served under a signature get their ' +
    'relative links signed too.',
} as const;

/**
 * Helmet's app-wide CSP would otherwise be sent too; the resource sets its own. CORP must allow
 * the opaque-origin sandbox to load its own scripts and images.
 */
const containerHelmet = {
  contentSecurityPolicy: false,
  crossOriginResourcePolicy: { policy: 'cross-origin' },
} as const;

/** `/api/kim/*`, `/api/task`, `/api/kimtemplate`, `/api/test/procedure`, `/api/KimHtmlContainer`: the content read side. */
export const kimRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;
  const signer = containerLinkSigner(config.sessionSecret);
  const versionOf = (req: FastifyRequest) => req.params as { containerId: number; version: number };
  /** Container resources: the session rule, or a signed link from the container metadata. */
  const containerAccess = [
    service.ownContainerOrContentStaff(containerIdOf),
    { signed: service.signedContainerAccess(signer, versionOf) },
  ] as const;
  /** The resource, with its relative links signed when it was asked for under a signature. */
  const serve = (req: FastifyRequest, reply: FastifyReply, resource: { mime: string; data: Buffer }) => {
    const token = service.signatureOf(req);
    return sendResource(reply, token === null ? resource : withSignedLinks(resource, token));
  };

  app.route({
    ...contractRoute('POST /api/kim/subject/list', {
      summary: 'Page of subjects',
      description: 'Filter: `search` (name or code). Sort fields: `id`, `name`, `code`.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listSubjects(db, req.body),
  });

  app.route({
    ...contractRoute('POST /api/kim/subjectTest/list', {
      summary: 'Page of subject tests',
      description:
        'Filter: `search` (name), `subjectId`, `subjectExamId`, `kind`, `testGroupId`, `parallel`. ' +
        'Sort fields: `id`, `name`, `subjectName`, `durationMinutes`, `createdAt`.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listSubjectTests(db, req.body),
  });

  app.route({
    ...contractRoute('POST /api/kim/test/list', {
      summary: 'Page of variants with their content status',
      description:
        'Each variant with its task count, max score, answer types, expert-graded task count and the ' +
        'positions of tasks that cannot be scored yet (no reference answer / no rubric). Filter: ' +
        '`search` (subject test name), `subjectId`, `subjectTestId`, `incomplete`. Sort fields: ' +
        '`id`, `number`, `subjectTestName`, `taskCount`.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listVariants(db, req.body),
  });

  app.route({
    ...contractRoute('GET /api/kim/parallels', {
      summary: 'Parallels (grades)',
      tags,
      errors: [401],
    }),
    handler: () => service.listParallels(db),
  });

  for (const key of ['GET /api/kim/subjectexams', 'GET /api/SubjectExams'] as const) {
    app.route({
      ...contractRoute(key, { summary: 'Subject exams (subject + kind of exam)', tags, errors: [401] }),
      handler: () => service.listSubjectExams(db),
    });
  }

  app.route({
    ...contractRoute('GET /api/kim/htmlxmltext/{id}', {
      summary: 'Source of a task by task id: html, answer type, content, key, scoring rule, rubric',
      description: 'Staff only (admin, expert): the answer key is part of the answer.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.taskSource(db, req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/task/{variantId}/{taskNumber}', {
      summary: 'A task of a variant by its number, with key, rubric, solution and files',
      description: '`withClassifiers=true` adds the specification elements the task checks.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) =>
      service.staffTask(db, req.params.variantId, req.params.taskNumber, req.query.withClassifiers),
  });

  app.route({
    ...contractRoute('GET /api/kimtemplate/{id}', {
      summary: 'A layout template (sanitized html + css)',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.kimTemplate(db, req.params.id),
  });

  app.route({
    ...contractRoute(
      'GET /api/kimtemplate/byvariantid/{id}',
      {
        summary: "Layout template of a variant's subject test",
        description: 'Participants: only the variant of their own live exam work (else 403).',
        tags,
        errors: [400, 401, 403, 404],
      },
      service.ownVariantOrContentStaff(idOf),
    ),
    handler: (req) => service.kimTemplateOfVariant(db, req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/test/procedure/{id}', {
      summary: 'Procedure (rules) of a subject test, sanitized html',
      tags,
      errors: [400, 401, 404],
    }),
    handler: (req) => service.procedure(db, req.params.id),
  });

  app.route({
    ...contractRoute(
      'GET /api/KimHtmlContainer/{id}',
      {
        summary: 'Interactive content container: current version, entry page, resource paths, signed link',
        description:
          'Participants: only containers of the tasks of their own current variant (else 403). `url` ' +
          'opens the entry page with a signature made for the caller, valid for 30 minutes.',
        tags,
        errors: [400, 401, 403, 404],
      },
      service.ownContainerOrContentStaff(idOf),
    ),
    handler: (req) => service.container(db, req.params.id, signer, authOf(req)),
  });

  app.route({
    ...contractRoute(
      'GET /api/kim/htmlContainer/{containerId}/{version}/index',
      { ...resourceDocs, summary: 'Entry page of a container version' },
      ...containerAccess,
    ),
    helmet: containerHelmet,
    handler: async (req, reply) =>
      serve(
        req,
        reply,
        await service.containerResource(db, req.params.containerId, req.params.version, { kind: 'index' }),
      ),
  });

  app.route({
    ...contractRoute(
      'GET /api/kim/htmlContainer/{containerId}/{version}/bundles/{bundle}',
      {
        ...resourceDocs,
        summary: 'A script/style bundle of a container version (stored as `bundles/<name>`)',
      },
      ...containerAccess,
    ),
    helmet: containerHelmet,
    handler: async (req, reply) =>
      serve(
        req,
        reply,
        await service.containerResource(db, req.params.containerId, req.params.version, {
          kind: 'path',
          path: `bundles/${req.params.bundle}`,
        }),
      ),
  });

  app.route({
    ...contractRoute(
      'GET /api/kim/htmlContainer/{containerId}/{version}/{resource}',
      { ...resourceDocs, summary: 'A resource of a container version' },
      ...containerAccess,
    ),
    helmet: containerHelmet,
    handler: async (req, reply) =>
      serve(
        req,
        reply,
        await service.containerResource(db, req.params.containerId, req.params.version, {
          kind: 'path',
          path: req.params.resource,
        }),
      ),
  });
};

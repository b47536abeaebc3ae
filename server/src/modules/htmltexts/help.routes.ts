import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import * as service from './help.service.js';

/**
 * Help (`/api/help`, anyone, a visitor too: sections chosen by role and page) and the admin's
 * editing of help sections and html texts (`/api/admin/help`, `/api/admin/htmltexts`). docs/help.md.
 */
const tags = ['help'];
const rolesOf = (req: FastifyRequest) => req.auth?.roles ?? [];
const WRITE_NOTE =
  'The html is sanitised when stored and again when read. Audited; bad input (400) changes nothing.';

export const helpRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('GET /api/help', {
      summary: 'The help sections for the caller, those of a page first',
      description:
        'Sections for the caller’s roles (or for everyone, to a visitor). With `page` (a path of the web ' +
        'app) the sections naming that page come first (`forPage`), then the general ones; sections about ' +
        'other pages are left out.',
      tags,
      errors: [400],
    }),
    handler: (req) => service.helpFor(db, rolesOf(req), req.query.page),
  });

  app.route({
    ...contractRoute('GET /api/help/{id}', {
      summary: 'One help section with its html (sanitised)',
      description: 'A draft, a missing section and one meant for other roles answer 404 alike.',
      tags,
      errors: [400, 404],
    }),
    handler: (req) => service.helpSection(db, rolesOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/admin/help', {
      summary: 'Every help section, published or not',
      tags,
      errors: [401, 403],
    }),
    handler: () => service.adminHelpList(db),
  });

  app.route({
    ...contractRoute('POST /api/admin/help', {
      summary: 'Create a help section',
      description: WRITE_NOTE,
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.saveHelp(db, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute('PUT /api/admin/help/{id}', {
      summary: 'Change a help section',
      description: WRITE_NOTE,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.saveHelp(db, actorOf(req), req.body, req.params.id),
  });

  app.route({
    ...contractRoute('DELETE /api/admin/help/{id}', {
      summary: 'Delete a help section',
      description: 'Audited.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.removeHelp(db, actorOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/admin/htmltexts', {
      summary: 'Every html text, published or not',
      tags,
      errors: [401, 403],
    }),
    handler: () => service.adminHtmlTexts(db),
  });

  app.route({
    ...contractRoute('POST /api/admin/htmltexts', {
      summary: 'Create an html text',
      description: `${WRITE_NOTE} A code another text has: 409 \`code_taken\`.`,
      tags,
      errors: [400, 401, 403, 409],
    }),
    handler: (req) => service.saveHtmlText(db, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute('PUT /api/admin/htmltexts/{id}', {
      summary: 'Change an html text',
      description: `${WRITE_NOTE} A code another text has: 409 \`code_taken\`.`,
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.saveHtmlText(db, actorOf(req), req.body, req.params.id),
  });
};

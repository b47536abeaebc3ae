import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { attachmentDisposition } from '../../lib/xlsx.js';
import type { ReportFile } from '../reports/index.js';
import * as keys from './api-keys.service.js';
import { keyScope, ooOf } from './integration.access.js';
import * as service from './integration.service.js';

/**
 * Integrations by API key (docs/integrations.md): the admin's keys (`/api/admin/apiKeys`) and the
 * data calls machine clients make with them (`/api/integration/*`, but the proctoring webhooks and
 * the results push, which live with the calls they serve).
 */
const tags = ['integration'];
const KEY_NOTE =
  'An admin, or a caller with an API key (`Authorization: Bearer atk_…`) whose scopes hold this call ' +
  'group (403 otherwise; a revoked key is 401). A key limited to an ОО reads that ОО only. Audited.';

function sendFile(reply: FastifyReply, file: ReportFile) {
  // A Buffer goes out as-is (no serializer), so the JSON schema of 200 does not apply to it.
  const body: unknown = file.body;
  return reply
    .type(file.mime)
    .header('content-disposition', attachmentDisposition(file.fileName))
    .send(body as never);
}

export const integrationRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const caller = (req: FastifyRequest): service.Caller => ({
    db,
    auth: authOf(req),
    ooId: ooOf(req),
    ip: req.ip ?? null,
  });

  app.route({
    ...contractRoute('GET /api/admin/apiKeys', {
      summary: 'Every integration API key, revoked ones too',
      description:
        'Name, prefix, the integration user it acts as, scopes, ОО, created, last used, revoked. Never a secret.',
      tags,
      errors: [401, 403],
    }),
    handler: () => keys.listKeys(db),
  });

  app.route({
    ...contractRoute('POST /api/admin/apiKeys', {
      summary: 'Create an integration API key',
      description:
        'Makes the key and the integration user it acts as. `secret` is the whole key, answered this once: ' +
        'only its hash is stored. An unknown `ooId` is 400 `not_found`. Audited (`api_key.create`).',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => keys.createKey(db, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute('POST /api/admin/apiKeys/{id}/revoke', {
      summary: 'Revoke an integration API key',
      description:
        'From now on the key is refused (401). A revoked key answers as it is. Audited (`api_key.revoke`).',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => keys.revokeKey(db, actorOf(req), req.params.id),
  });

  app.route({
    ...contractRoute(
      'GET /api/integration/mrko/exportResults',
      {
        summary: 'Published marks of students for the MRKO journal',
        description:
          `Scope \`mrko\`. ${KEY_NOTE} Published counted results with a mark, of test days startDate–endDate ` +
          '(yyyy-mm-dd, 400 `invalid_date`, `invalid_date_range`), a page at a time (`page`, `pageSize`, ' +
          '`total`); `format=csv` answers every page as one CSV file (columns of docs/integrations.md).',
        tags,
        errors: [400, 401, 403],
      },
      keyScope('mrko'),
    ),
    handler: async (req, reply) => {
      const out = await service.mrkoExport(caller(req), req.query);
      return 'file' in out ? sendFile(reply, out.file) : out.data;
    },
  });

  app.route({
    ...contractRoute(
      'GET /api/integration/report/all',
      {
        summary: 'Every published result of a period',
        description:
          `Scope \`reports\`. ${KEY_NOTE} Published counted results of test days startDate–endDate in the ` +
          'attesta layout (docs/integrations.md), a page at a time.',
        tags,
        errors: [400, 401, 403],
      },
      keyScope('reports'),
    ),
    handler: (req) => service.reportAll(caller(req), req.query),
  });

  app.route({
    ...contractRoute(
      'GET /api/integration/pak/specifications',
      {
        summary: 'Specifications of the published subject tests of a grade, for the ПАК',
        description:
          `Scope \`specifications\`. ${KEY_NOTE.replace(' Audited.', '')} \`parallel\` the grade; \`system\` ` +
          'the kind of exam (diagnostic, preprof, preschool, worker), every kind if absent.',
        tags,
        errors: [400, 401, 403],
      },
      keyScope('specifications'),
    ),
    handler: (req) => service.pakSpecifications(db, req.query),
  });

  app.route({
    ...contractRoute(
      'POST /api/integration/attesta/CreateWorkers',
      {
        summary: 'Create or update workers sent by the upstream instance',
        description:
          `Scope \`workers\`. ${KEY_NOTE} Workers by \`externalId\`: new ones are created, known ones updated, ` +
          'all or nothing; the same body twice gives the same rows. A school by its code (400 `not_found`), ' +
          'outside the key’s ОО 403; a position by name, created if new.',
        tags,
        errors: [400, 401, 403],
      },
      keyScope('workers'),
    ),
    handler: (req) => service.createWorkers(caller(req), req.body),
  });
};

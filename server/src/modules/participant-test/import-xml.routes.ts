import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { importFromXml } from './import-xml.service.js';

/** Largest import file: 5000 rows of a few hundred bytes each, with room to spare. */
const XML_BODY_LIMIT = 5 * 1024 * 1024;

/** `POST /api/ParticipantTest/participantTestImportFromXml`: the raw XML file as the request body. */
export const participantTestImportRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // Encapsulated: only this plugin's routes accept XML bodies.
  app.addContentTypeParser(
    ['application/xml', 'text/xml'],
    { parseAs: 'string', bodyLimit: XML_BODY_LIMIT },
    (_req, body, done) => done(null, body),
  );

  const route = contractRoute('POST /api/ParticipantTest/participantTestImportFromXml', {
    summary: 'Import participant tests from an XML file (all or nothing)',
    description:
      'Send the file itself as the body with `Content-Type: application/xml` (UTF-8). Format: ' +
      'docs/participant-test-import.md. Every row is checked first; any error answers 400 ' +
      '`import_invalid` with `errors` per row (`participantTest[N].field`, N 1-based) and changes ' +
      'nothing. DOCTYPE/ENTITY declarations: 400 `xml_doctype_forbidden`; not well-formed: 400 ' +
      '`xml_malformed`. A coordinator may import only rows of their own school. Students are ' +
      'matched by names + birth date in the school or created; existing registrations are kept.',
    tags: ['participant-test'],
    errors: [400, 401, 403, 413, 415],
  });
  app.route({
    ...route,
    bodyLimit: XML_BODY_LIMIT,
    handler: (req) => importFromXml(ctx, actorOf(req), req.body),
  });
};

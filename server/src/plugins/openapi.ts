import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { RawAnswer } from '@attesta/contract';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** What a call that answers no JSON documents as its success: a file, an event stream, a redirect. */
const RAW_ANSWERS: Record<RawAnswer, [status: string, doc: object]> = {
  file: [
    '200',
    {
      description: 'the file, with its type and name in `Content-Type` and `Content-Disposition`',
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    },
  ],
  stream: [
    '200',
    {
      description: 'a server-sent event stream, open until either side ends it',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
  ],
  redirect: [
    '302',
    {
      description: 'a redirect; `Location` says where',
      headers: { Location: { type: 'string' } },
    },
  ],
};

/**
 * The document without the component schemas nothing refers to: every named zod schema of the
 * contract is registered, also those only used inside calls that inline them. A schema is kept when
 * a path or a kept schema refers to it.
 */
function withoutUnusedSchemas<T>(doc: T): T {
  const d = doc as { paths?: unknown; components?: { schemas?: Record<string, unknown> } };
  const schemas = d.components?.schemas;
  if (!schemas) return doc;
  const refs = (node: unknown) =>
    [...JSON.stringify(node ?? null).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) =>
      decodeURIComponent(m[1]!.replace(/~1/g, '/').replace(/~0/g, '~')),
    );
  const kept = new Set<string>();
  const queue = refs(d.paths);
  while (queue.length) {
    const name = queue.pop()!;
    if (kept.has(name) || !(name in schemas)) continue;
    kept.add(name);
    queue.push(...refs(schemas[name]));
  }
  d.components!.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name)));
  return doc;
}

/**
 * The zod schemas as JSON Schema, each route's `operationId` (set by `contractRoute` from its row)
 * checked unique, and the success of a call that answers no JSON documented from its row's `raw`.
 */
function makeTransform() {
  const seen = new Map<string, string>();
  return (input: TransformInput) => {
    const out = jsonSchemaTransform(input);
    const schema = out.schema as { operationId?: string; response?: Record<string, unknown> };
    const where = `${String(input.route.method)} ${input.url}`;
    if (schema.operationId) {
      const other = seen.get(schema.operationId);
      if (other && other !== where)
        throw new Error(`operationId ${schema.operationId} of ${where} is also ${other}'s`);
      seen.set(schema.operationId, where);
    }
    const raw = input.route.config?.rawAnswer;
    if (raw) {
      const [status, doc] = RAW_ANSWERS[raw as RawAnswer];
      schema.response = { [status]: doc, ...schema.response };
    }
    return out;
  };
}

/** OpenAPI generated from the routes' zod schemas; UI at /api/docs, JSON at /api/docs/json. */
export const openapiPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Attesta API',
          version: '0.1.0',
          license: {
            name: 'Proprietary (UNLICENSED): not licensed for use outside its owner',
            identifier: 'LicenseRef-Attesta-Proprietary',
          },
          description:
            'Online examination and testing platform. Errors: `{status, code, message, errors?}`. ' +
            'Cookie sessions must send `X-Requested-With: XMLHttpRequest` on state-changing calls. ' +
            'Lists: `POST .../list` with `{page, pageSize, sort?, filter?}` → `{items, total}`.',
        },
        // Relative to the document's own origin: each instance serves the API it documents.
        servers: [{ url: '/', description: 'the server that serves this document' }],
        components: {
          securitySchemes: {
            cookie: { type: 'apiKey', in: 'cookie', name: 'attesta_sid' },
            bearer: { type: 'http', scheme: 'bearer' },
          },
        },
        security: [{ cookie: [] }, { bearer: [] }],
      },
      transform: makeTransform(),
      transformObject: (input) => withoutUnusedSchemas(jsonSchemaTransformObject(input)),
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'openapi' },
);

import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI generated from the routes' zod schemas; UI at /api/docs, JSON at /api/docs/json. */
export const openapiPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Attesta API',
          version: '0.1.0',
          description:
            'Online examination and testing platform. Errors: `{status, code, message, errors?}`. ' +
            'Cookie sessions must send `X-Requested-With: XMLHttpRequest` on state-changing calls. ' +
            'Lists: `POST .../list` with `{page, pageSize, sort?, filter?}` → `{items, total}`.',
        },
        components: {
          securitySchemes: {
            cookie: { type: 'apiKey', in: 'cookie', name: 'attesta_sid' },
            bearer: { type: 'http', scheme: 'bearer' },
          },
        },
        security: [{ cookie: [] }, { bearer: [] }],
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'openapi' },
);

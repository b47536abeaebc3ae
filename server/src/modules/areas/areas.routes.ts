import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import * as service from './areas.service.js';

/**
 * Areas (docs/ugnik.md): the admin's list of areas (`GET`/`POST /api/admin/areas`) and the
 * supervision authority's read-only view of the school diagnostics in its area
 * (`GET /api/ugnik/area/diagnostics`, `GET /api/ugnik/area/diagnostic/{id}`).
 */
const tags = ['areas'];

export const areaRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('GET /api/admin/areas', {
      summary: 'The areas of the region, by name, with their school counts',
      tags,
      errors: [401, 403],
    }),
    handler: () => service.listAreas(db),
  });

  app.route({
    ...contractRoute('POST /api/admin/areas', {
      summary: 'Create an area',
      description: 'Audited (area.create). 409 `area_name_taken` when another area has the name.',
      tags,
      errors: [400, 401, 403, 409],
    }),
    handler: (req) => service.createArea(db, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute('GET /api/ugnik/area', {
      summary: "The ugnik's own area, with the number of schools in it",
      description: '`area: null` for an ugnik bound to no area.',
      tags,
      errors: [401, 403],
    }),
    handler: (req) => service.areaOfUgnik(db, authOf(req)),
  });

  app.route({
    ...contractRoute('GET /api/ugnik/area/diagnostics', {
      summary: "The school diagnostics of the schools in the ugnik's area, a row per diagnostic and school",
      description:
        'Read-only. School diagnostics are those held in schools (any creator; not open tests); each row has the state by ' +
        'the dates, the school and its participants and finished works. `search`: part of the name, code or ' +
        'school. An ugnik bound to no area gets `area: null` and no rows.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.areaDiagnostics(db, authOf(req), req.query.search),
  });

  app.route({
    ...contractRoute('GET /api/ugnik/area/diagnostic/{id}', {
      summary: "One school diagnostic of the ugnik's area, with the area's schools in it",
      description: '403 `out_of_area` for a diagnostic with no school of the area; 404 for none.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.areaDiagnostic(db, authOf(req), req.params.id),
  });
};

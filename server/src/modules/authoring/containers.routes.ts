import { actorOf } from '../../auth/actor.js';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CONTAINER_MAX_BYTES } from '@attesta/contract';
import { authOf, contractRoute } from '../../auth/access.js';
import { Spool } from '../../lib/multipart.js';
import { containerLinkSigner } from '../kim/index.js';
import { anyContentScope } from './authoring.access.js';
import { containerScope } from './containers.access.js';
import * as service from './containers.service.js';

/**
 * `/api/admin/content/containers*` (issue 11): the admin's html containers — list, upload, new
 * versions, and a signed link for the preview. Registered by content.routes.ts.
 */
const tags = ['authoring'];
const MB = CONTAINER_MAX_BYTES / 1024 / 1024;

const ZIP_RULES =
  `The zip (at most ${MB} MB; unpacked at most 50 MB and 1000 files) goes through the content ` +
  'import’s safety layer: a zip bomb, `..` or absolute names, links or special files are 400 ' +
  '`package_too_large` / `package_unsafe`, nothing stored. Its files must lie beside the entry ' +
  'page or in `bundles/` (a zip whose files all sit in one folder is read from inside it) and be ' +
  'html, css, js, json or txt in UTF-8 (kept as they are: they run in the sandbox), png, jpeg, gif ' +
  'or webp recognised by their bytes, svg (rebuilt without scripts) or fonts (woff, woff2, ttf, ' +
  'otf); anything else is 400 `container_file_refused` with the file in `errors[0].params.name`. ' +
  'The entry page: the field `entry` (an html file at the root), else index.html, else the only ' +
  'html file at the root; none is 400 `container_no_entry`. Not a zip: 400 `unsupported_format`; ' +
  `no file: 400 \`no_file\`; more than ${MB} MB: 413 (answered at once). Audited.`;

export const containerRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;
  const signer = containerLinkSigner(config.sessionSecret);

  app.route({
    ...contractRoute(
      'GET /api/admin/content/containers',
      {
        summary: 'Every html container with its versions and the number of tasks it renders',
        tags,
        errors: [401, 403],
      },
      anyContentScope,
    ),
    handler: () => service.listContainers(db),
  });

  app.route({
    ...contractRoute(
      'GET /api/admin/content/containers/{id}/preview',
      {
        summary: 'A signed link to a version of a container, for the preview',
        description:
          '`version` (default: the current one). `url` opens the entry page of that version with a ' +
          'signature made for the caller, valid for 30 minutes, for the `<iframe sandbox="allow-scripts">` ' +
          'the runner uses; the files are served by `/api/kim/htmlContainer/…` with their sandboxing ' +
          'CSP. 404 unknown container or version.',
        tags,
        errors: [400, 401, 403, 404],
      },
      containerScope,
    ),
    handler: (req) => service.preview(db, signer, authOf(req), req.params.id, req.query.version),
  });

  // The uploads read a multipart form: their own plugin, so only they parse multipart.
  await app.register(async (child) => {
    const upload = child.withTypeProvider<ZodTypeProvider>();
    await upload.register(multipart, {
      limits: { fileSize: CONTAINER_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
    });

    const create = contractRoute(
      'POST /api/admin/content/containers',
      {
        summary: 'Upload an html container (a zip: entry page, scripts, styles, pictures)',
        description:
          'multipart/form-data: the fields `name` (required) and `entry` (optional) first, then the ' +
          `zip in the field \`file\`. Stored as version 1. ${ZIP_RULES}`,
        tags,
        errors: [400, 401, 403, 413],
      },
      anyContentScope,
    );
    upload.route({
      ...create,
      handler: async (req) => {
        const spool = new Spool();
        try {
          return await service.createContainer(
            db,
            actorOf(req),
            await service.readContainerForm(req, spool, true),
          );
        } finally {
          await spool.cleanup();
        }
      },
    });

    const version = contractRoute(
      'POST /api/admin/content/containers/{id}/versions',
      {
        summary: 'Upload a new version of an html container',
        description:
          'multipart/form-data: the fields `entry` and `name` (both optional: `name` renames the ' +
          'container) first, then the zip in the field `file`. It becomes version currentVersion + 1, ' +
          'which new works get; the older versions stay, and a work keeps the version current when ' +
          `it started. 404 unknown container. ${ZIP_RULES}`,
        tags,
        errors: [400, 401, 403, 404, 413],
      },
      containerScope,
    );
    upload.route({
      ...version,
      handler: async (req) => {
        const spool = new Spool();
        try {
          return await service.addVersion(
            db,
            actorOf(req),
            req.params.id,
            await service.readContainerForm(req, spool, false),
          );
        } finally {
          await spool.cleanup();
        }
      },
    });
  });
};

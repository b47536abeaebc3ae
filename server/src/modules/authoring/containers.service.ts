import type { FastifyRequest } from 'fastify';
import {
  CONTAINER_MAX_BYTES,
  containerUploadFormSchema,
  type AdminHtmlContainer,
  type ContainerPreview,
  type ContainerUploadForm,
} from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { IncomingFile, Spool } from '../../lib/multipart.js';
import { readUploadForm } from '../files/index.js';
import { containerVersionView, type ContainerLinkSigner } from '../kim/index.js';
import { record } from './catalog.service.js';
import { readContainerZip } from './containers.package.js';
import * as repo from './containers.repo.js';
import type { Actor } from './pause-policy.service.js';

/*
 * The admin's html containers (issue 11; docs/html-containers.md): list, upload a new container or
 * a new version of one (a zip checked by containers.package.ts, stored all or nothing, audited),
 * and a signed link to a version for the preview. The files are served by the kim module's
 * sandboxed routes; old versions stay for the works that started with them.
 */

async function present(db: DbOrTx, rows: repo.ContainerRow[]): Promise<AdminHtmlContainer[]> {
  const ids = rows.map((r) => r.id);
  const [versions, fromResources, counts] = await Promise.all([
    repo.versionsOf(db, ids),
    repo.resourceVersionsOf(db, ids),
    repo.taskCounts(db, ids),
  ]);
  return rows.map((row) => {
    const own = versions.filter((v) => v.containerId === row.id);
    const known = new Set(own.map((v) => v.version));
    // Versions stored without a row (the demo seed, older data): told from their files.
    const older = fromResources
      .filter((r) => r.containerId === row.id && !known.has(r.version))
      .map((r) => ({
        version: r.version,
        entry: row.entry,
        fileCount: r.fileCount,
        totalBytes: 0,
        createdAt: row.createdAt,
      }));
    return {
      id: row.id,
      name: row.name,
      currentVersion: row.currentVersion,
      entry: row.entry,
      createdAt: row.createdAt.toISOString(),
      taskCount: counts.get(row.id) ?? 0,
      versions: [...own, ...older]
        .sort((a, b) => b.version - a.version)
        .map((v) => ({
          version: v.version,
          entry: v.entry,
          fileCount: v.fileCount,
          totalBytes: v.totalBytes,
          createdAt: v.createdAt.toISOString(),
        })),
    };
  });
}

export async function listContainers(db: Db): Promise<AdminHtmlContainer[]> {
  return present(db, await repo.listContainers(db));
}

/** The form of an upload: its text fields (before the file, checked first) and the zip. */
export interface ContainerUpload {
  form: ContainerUploadForm;
  file: IncomingFile;
}

/**
 * Reads the multipart form: the text fields are checked before a byte of the file is read
 * (`name` is required for a new container), then the one zip is spooled within the size limit.
 */
export async function readContainerForm(
  req: FastifyRequest,
  spool: Spool,
  isNew: boolean,
): Promise<ContainerUpload> {
  let form: ContainerUploadForm | null = null;
  const { files } = await readUploadForm(req, spool, async (fields) => {
    const parsed = containerUploadFormSchema.safeParse(fields);
    if (!parsed.success)
      throw badRequest(
        'validation_failed',
        'The form fields are not valid',
        parsed.error.issues.map((i) => ({
          path: i.path.join('.') || 'form',
          message: i.message,
          code: i.code,
        })),
      );
    if (isNew && !parsed.data.name)
      throw badRequest('validation_failed', 'Name the container', [
        { path: 'name', message: 'required', code: 'required' },
      ]);
    form = parsed.data;
    return { perFileBytes: CONTAINER_MAX_BYTES, quotaBytes: null };
  });
  const file = files[0];
  if (!file || !form) throw badRequest('no_file', 'Send the zip as the form field `file`');
  return { form, file };
}

export async function createContainer(db: Db, actor: Actor, upload: ContainerUpload) {
  const { entry, files } = await readContainerZip(await upload.file.read(), upload.form.entry);
  const name = upload.form.name!;
  return db.transaction(async (tx) => {
    const row = await repo.insertContainer(tx, { name, entry });
    await repo.insertVersion(tx, row.id, 1, entry, actor.auth.userId, files);
    await record(tx, actor, 'content.container.create', 'html_container', row.id, {
      name,
      entry,
      fileCount: files.length,
    });
    return (await present(tx, [row]))[0]!;
  });
}

export async function addVersion(db: Db, actor: Actor, id: number, upload: ContainerUpload) {
  const { entry, files } = await readContainerZip(await upload.file.read(), upload.form.entry);
  return db.transaction(async (tx) => {
    const old = await repo.lockContainer(tx, id);
    if (!old) throw notFound('No such container');
    const version = old.currentVersion + 1;
    await repo.insertVersion(tx, id, version, entry, actor.auth.userId, files);
    const row = await repo.setCurrentVersion(tx, id, {
      currentVersion: version,
      entry,
      name: upload.form.name ?? old.name,
    });
    await record(tx, actor, 'content.container.version', 'html_container', id, {
      version,
      entry,
      fileCount: files.length,
      ...(row.name !== old.name ? { name: row.name } : {}),
    });
    return (await present(tx, [row]))[0]!;
  });
}

/** A signed link to a version (the current one by default) for the admin's preview frame. */
export async function preview(
  db: Db,
  signer: ContainerLinkSigner,
  auth: AuthContext,
  id: number,
  wanted: number | undefined,
): Promise<ContainerPreview> {
  const row = await repo.findContainer(db, id);
  if (!row) throw notFound('No such container');
  const version = wanted ?? row.currentVersion;
  const view = await containerVersionView(db, signer, row, version, {
    userId: auth.userId,
    participantTestId: null,
  });
  if (!view.resources.length) throw notFound('This container has no such version');
  return {
    containerId: id,
    name: row.name,
    version,
    ...view,
  };
}

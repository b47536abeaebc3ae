import type { FastifyInstance } from 'fastify';
import { forbidden } from '../lib/errors.js';
import { isLocalToolCall } from '../lib/local-tool.js';

export interface BackupRoutesOptions {
  /** The token of server.json: only local tools that can read the data folder know it. */
  token: string;
}

/**
 * `npm run backup` while the server holds the embedded database: PGlite is one process, so only
 * the server may read its folder; it dumps the cluster between two statements (saves wait for the
 * dump, none is cut) and answers the tarball, with where the uploaded files lie. Outside /api (no
 * session, no role), hidden from the API docs, registered only on the embedded database.
 */
export async function backupRoutes(app: FastifyInstance, options: BackupRoutesOptions) {
  app.get('/internal/backup/database', { schema: { hide: true } }, async (req, reply) => {
    if (!isLocalToolCall(req, options.token))
      throw forbidden('Only local tools of this server may call this');
    const dump = app.ctx.database.dump;
    if (!dump) throw forbidden('Only the embedded database is backed up by the server');
    const at = new Date().toISOString();
    const started = performance.now();
    const tarball = Buffer.from(await (await dump('gzip')).arrayBuffer());
    app.log.info({ bytes: tarball.length, ms: Math.round(performance.now() - started) }, 'database dumped');
    const filesDir = app.ctx.files.blobs?.location;
    return reply
      .header('content-type', 'application/gzip')
      .header('x-attesta-database-at', at)
      .header('x-attesta-files-dir', filesDir ? encodeURIComponent(filesDir) : '')
      .send(tarball);
  });
}

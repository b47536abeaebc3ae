import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore, ByteRange } from './types.js';

/** A key is a random UUID: it never names a path outside the store. */
const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Blobs as files in a folder: `<dir>/<first two characters of the key>/<key>`. A blob is written
 * with fs streams into `<dir>/.incoming/`, flushed to disk, then renamed into place, so a key
 * names either the whole file or nothing. Nothing here runs on the server's thread for long:
 * the bytes go through libuv's file system threads.
 */
export class DiskBlobStore implements BlobStore {
  readonly driver = 'disk' as const;
  constructor(readonly dir: string) {}

  get location(): string {
    return this.dir;
  }

  owns(key: string): boolean {
    return KEY.test(key);
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error('not a key of this store');
    return join(this.dir, key.slice(0, 2), key);
  }

  async put(source: Buffer | Readable): Promise<string> {
    const key = randomUUID();
    const target = this.pathOf(key);
    const incoming = join(this.dir, '.incoming', key);
    await mkdir(dirname(incoming), { recursive: true });
    await mkdir(dirname(target), { recursive: true });
    try {
      if (Buffer.isBuffer(source)) {
        const handle = await open(incoming, 'wx', 0o600);
        try {
          await handle.writeFile(source);
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        await pipeline(source, createWriteStream(incoming, { flags: 'wx', mode: 0o600 }));
        const handle = await open(incoming, 'r');
        await handle.sync().finally(() => handle.close());
      }
      await rename(incoming, target);
    } catch (error) {
      await rm(incoming, { force: true });
      throw error;
    }
    return key;
  }

  get(key: string, range?: ByteRange): Readable {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(before: Date): AsyncIterable<string> {
    for (const sub of await entriesOf(this.dir)) {
      if (sub.length !== 2) continue;
      for (const key of await entriesOf(join(this.dir, sub))) {
        if (!KEY.test(key) || key.slice(0, 2) !== sub) continue;
        const info = await stat(join(this.dir, sub, key)).catch(() => null);
        if (info?.isFile() && info.mtime < before) yield key;
      }
    }
  }

  async clearStaging(before: Date): Promise<number> {
    const staging = join(this.dir, '.incoming');
    let removed = 0;
    for (const name of await entriesOf(staging)) {
      const info = await stat(join(staging, name)).catch(() => null);
      if (!info?.isFile() || info.mtime >= before) continue;
      await rm(join(staging, name), { force: true });
      removed++;
    }
    return removed;
  }
}

/** A folder's entries; none when it does not exist (nothing stored yet). */
async function entriesOf(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Settings } from '../src/lib/file-storage/s3.js';
import { freePort } from './processes.js';

/*
 * A real S3-protocol server for the tests of the `s3` file storage: s3rver (npm registry, a
 * devDependency), run as a child process on 127.0.0.1 over a temporary folder. It speaks enough
 * S3 for the driver: PutObject, multipart uploads (create, part, complete, abort), GetObject with
 * a Range, DeleteObject. A child process, so that a test can kill it mid-upload (SIGKILL) and
 * start it again on the same port and folder. s3rver checks request signatures against its
 * default keys S3RVER / S3RVER.
 */

const CHILD = fileURLToPath(new URL('./s3-server.child.mjs', import.meta.url));
export const S3_TEST_BUCKET = 'attesta-test';

export class S3TestServer {
  private child: ChildProcess | null = null;
  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The FILES_S3_* settings of this server, as the server's configuration would give them. */
  settings(): S3Settings {
    return {
      endpoint: this.endpoint,
      bucket: S3_TEST_BUCKET,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    };
  }

  /** The same as environment variables (for createTestApp). */
  env(): Record<string, string> {
    return {
      FILES_S3_ENDPOINT: this.endpoint,
      FILES_S3_BUCKET: S3_TEST_BUCKET,
      FILES_S3_ACCESS_KEY_ID: 'S3RVER',
      FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
  }

  static async start(): Promise<S3TestServer> {
    const server = new S3TestServer(await freePort(), await mkdtemp(join(tmpdir(), 'attesta-s3-')));
    try {
      await server.resume();
    } catch (error) {
      await rm(server.dir, { recursive: true, force: true });
      throw error;
    }
    return server;
  }

  /** Starts the server (again) on its port and folder; resolves when it listens. */
  async resume(): Promise<void> {
    const child = spawn(process.execPath, [CHILD, String(this.port), this.dir, S3_TEST_BUCKET], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`s3rver did not start in 20 s\n${stderr}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited (${code}) before it listened\n${stderr}`));
      });
    });
  }

  /** Kills the server at once (SIGKILL: connections cut mid-request); its folder stays. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async close(): Promise<void> {
    await this.kill();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * The local S3 server for a test file, or null when it cannot start here: the file's S3 tests
 * then skip, saying why. Under CI (CI=true) a server that cannot start fails the run instead.
 */
export async function s3ServerOrSkip(): Promise<S3TestServer | null> {
  try {
    return await S3TestServer.start();
  } catch (error) {
    const message = `the local S3 server (s3rver) could not start: ${(error as Error).message}`;
    if (process.env.CI === 'true')
      throw new Error(`${message} (CI=true: the S3 tests must run)`, { cause: error });
    console.warn(`Skipping the S3 file storage tests: ${message}`);
    return null;
  }
}

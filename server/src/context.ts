import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { SessionStore } from './auth/session-store.js';
import type { ProofOfWork } from './auth/proof-of-work.js';
import type { Throttle } from './auth/throttle.js';
import type { Cache } from './lib/cache.js';
import type { FileStorage } from './lib/file-storage/index.js';
import type { Mailer } from './lib/mailer.js';

/** Everything a module's services need, built once by buildApp and shared by every request. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** Where stored files' bytes live (also `fileStorageOf(db)`). */
  files: FileStorage;
  sessions: SessionStore;
  throttle: Throttle;
  /** Proofs of work asked of activation-code attempts beyond the free budgets. */
  pow: ProofOfWork;
  mailer: Mailer;
  cache: Cache | null;
  redis: Redis | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Contract calls no module implements yet (they answer 501). */
    stubbedEndpoints: string[];
  }
}

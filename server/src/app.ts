import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { accessPlugin } from './auth/access.js';
import { SessionStore } from './auth/session-store.js';
import { ProofOfWork } from './auth/proof-of-work.js';
import { Throttle } from './auth/throttle.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, type Database } from './db/client.js';
import { answerBeforeUnreadBodies } from './lib/unread-body.js';
import { openFileStorage, useFileStorage } from './lib/file-storage/index.js';
import { PgBroadcast, RedisBroadcast, type Broadcast } from './lib/broadcast.js';
import { connectRedis, MemoryCache, RedisCache, type Cache } from './lib/cache.js';
import { redactUrl, serializeError } from './lib/log-safety.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { modules } from './modules/index.js';
import { compressionPlugin } from './plugins/compression.js';
import { errorsPlugin } from './plugins/errors.js';
import { healthRoutes } from './plugins/health.js';
import { metricsPlugin } from './plugins/metrics.js';
import { clientErrorHandler, frameworkErrors, hygienePlugin } from './plugins/hygiene.js';
import { requestLogPlugin } from './plugins/request-log.js';
import { openapiPlugin } from './plugins/openapi.js';
import { securityPlugin } from './plugins/security.js';
import { cachingSerializerCompiler } from './plugins/serializer.js';
import { registerStubs, trackRoutes } from './plugins/stubs.js';
import { webPlugin } from './plugins/web.js';

export interface BuildOptions {
  /** An already open (and migrated) database, e.g. a test database. */
  database?: Database;
  /** Replace the mailer (tests capture messages). */
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Serve the web client (default true). */
  web?: boolean;
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    serializers: {
      err: serializeError,
      req: (req: { method: string; url: string; ip?: string; headers?: Record<string, unknown> }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
        userAgent: req.headers?.['user-agent'],
      }),
    },
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    ...(config.env === 'development' && process.stdout.isTTY
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

/** Builds the whole server: database, sessions, access layer, every module, docs and the web app. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    forceCloseConnections: 'idle',
    // Which requests are logged is plugins/request-log.ts's choice, not two lines for every one.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(cachingSerializerCompiler);

  const ownsDatabase = !options.database;
  const database =
    options.database ??
    (await openDatabase({
      url: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir + '/pglite',
      poolSize: config.databasePoolSize,
      poolMin: config.databasePoolMin,
    }));
  if (ownsDatabase) {
    await database.migrate();
    // At 10:00 the first sign-ins must not wait for the pool's connections to open.
    await database.warm?.();
  }

  // Large bytes never go through the embedded database (it runs on this thread): lib/file-storage.
  const files = await openFileStorage({
    driver: config.filesStorage,
    s3: config.filesS3,
    dir: config.filesDir,
    dataDir: config.dataDir,
    database,
  });
  useFileStorage(database.db, files);

  let redis: Redis | null = null;
  let cache: Cache | null = null;
  if (config.redisUrl) {
    redis = connectRedis(config.redisUrl, config.redisKeyPrefix);
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
    cache = new RedisCache(redis);
  } else if (database.kind === 'pglite') {
    // One process owns the embedded database, so an in-process cache cannot go stale elsewhere.
    cache = new MemoryCache();
  }

  // On a database server, sessions also live briefly in each process's memory; their ends reach
  // every instance through Redis pub/sub, or PostgreSQL LISTEN/NOTIFY without Redis. (PGlite has
  // one process and its in-process cache already.)
  const warn = (what: string) => (err: unknown) =>
    app.log.warn({ err: err instanceof Error ? err.message : String(err) }, what);
  const sessionBroadcast: Broadcast | null =
    config.sessionLocalCacheMs <= 0
      ? null
      : redis
        ? new RedisBroadcast(redis, `${config.redisKeyPrefix}sessions:ended`, warn('redis error'))
        : database.kind === 'postgres' && database.url
          ? new PgBroadcast(database.url, database, 'attesta_sessions_ended', warn('session broadcast error'))
          : null;
  const sessions = new SessionStore(
    database.db,
    {
      idleMs: config.sessionIdleMs,
      absoluteMs: config.sessionAbsoluteMs,
      ...(sessionBroadcast
        ? { local: { ttlMs: config.sessionLocalCacheMs, broadcast: sessionBroadcast } }
        : {}),
    },
    cache,
  );
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    files,
    sessions,
    throttle: new Throttle(redis),
    pow: new ProofOfWork(config.sessionSecret, () => ctx.throttle),
    mailer:
      options.mailer ??
      createMailer(database.db, app.log, { smtpUrl: config.smtpUrl, from: config.mailFrom }),
    cache,
    redis,
  };
  app.decorate('ctx', ctx);

  app.addHook('onClose', async () => {
    sessionBroadcast?.close();
    await cache?.close();
    redis?.disconnect();
    if (ownsDatabase) await database.close();
    await files.close();
  });

  // A refusal sent while the request's body still arrives is answered, then the body drained.
  answerBeforeUnreadBodies(app);
  await app.register(errorsPlugin);
  await app.register(hygienePlugin);
  await app.register(requestLogPlugin, { mode: config.logRequests, slowMs: config.logSlowRequestMs });
  await app.register(securityPlugin);
  // Before every route and the static files: its hook sees each answer (docs/ARCHITECTURE.md).
  await app.register(compressionPlugin);
  await app.register(cookie, { secret: config.sessionSecret });
  await app.register(openapiPlugin);
  await app.register(accessPlugin, { sessions });
  // After openapi (its route is documented), before every other route (each gets its measure hook).
  await app.register(metricsPlugin);

  const implemented = trackRoutes(app);
  await app.register(healthRoutes);
  for (const mod of modules) await app.register(mod);
  const stubbed: string[] = [];
  await app.register(async (scope) => {
    stubbed.push(...registerStubs(scope, implemented));
  });
  app.decorate('stubbedEndpoints', stubbed);
  if (options.web !== false) await app.register(webPlugin, { webDist: config.webDist });
  else {
    app.setNotFoundHandler(async (req, reply) =>
      reply
        .status(404)
        .send({ status: 404, code: 'not_found', message: `No such call: ${req.method} ${req.url}` }),
    );
  }
  return app;
}

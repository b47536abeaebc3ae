import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './lib/file-storage/s3.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

/** Results leave over https only; plain http only to a loopback address (development, tests). */
function isUpstreamUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** An address (`10.0.0.5`, `::1`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`) of METRICS_ALLOW. */
export function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

const addressList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every(isAddressOrRange), {
    message: 'a comma-separated list of addresses or CIDR ranges, such as 10.0.0.0/8,127.0.0.1',
  });

/** Every setting comes from the environment (README "Configuration"), validated once at start. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Connections waiting to be accepted; the kernel caps it at net.core.somaxconn (4096 on Linux ≥ 5.4).
  LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65535).default(4096),
  // On SIGTERM: how long the instance keeps serving with its readiness probe at 503 before it closes,
  // so the balancer stops sending to it first (its probe interval × failures to mark it down).
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  PUBLIC_URL: optionalUrl(['http://', 'https://']),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  // Connections opened at start and kept open (at most the pool's size; default: all of it).
  DATABASE_POOL_MIN: z.coerce.number().int().min(0).max(200).optional(),
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  REDIS_KEY_PREFIX: z.string().default('attesta:'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(120),
  SESSION_LOCAL_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  COOKIE_SECURE: bool.optional(),
  TRUST_PROXY: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  // Where uploaded files' bytes go: `disk` (a folder), `database` (the files table) or `s3` (a
  // bucket of any S3-compatible service). Default: `disk` on the embedded database (its bytes
  // would block the server's thread), else `database`.
  FILES_STORAGE: z.enum(['database', 'disk', 's3']).optional(),
  FILES_DIR: optionalText,
  FILES_S3_ENDPOINT: optionalUrl(['http://', 'https://']),
  FILES_S3_BUCKET: optionalText,
  FILES_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  FILES_S3_ACCESS_KEY_ID: optionalText,
  FILES_S3_SECRET_ACCESS_KEY: optionalText,
  FILES_S3_FORCE_PATH_STYLE: bool.optional(),
  UPLOAD_QUOTA_MB: z.coerce.number().int().min(1).max(100_000).default(200),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Which requests get a log line: `slow` (the default: those over LOG_SLOW_REQUEST_MS), `all`, `none`. */
  LOG_REQUESTS: z.enum(['slow', 'all', 'none']).default('slow'),
  LOG_SLOW_REQUEST_MS: z.coerce.number().int().min(1).default(1000),
  DEMO_DATA: bool.default(true),
  DEMO_PASSWORD: z.string().min(1).default('demo'),
  SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  MAIL_FROM: z.string().default('Attesta <no-reply@attesta.local>'),
  OIDC_ISSUER: optionalUrl(['http://', 'https://']),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_PROVIDER_NAME: z.string().default('oidc'),
  OIDC_SCOPES: z.string().default('openid profile email'),
  OIDC_DEFAULT_ROLE: z.enum(['guest', 'participant']).default('guest'),
  WEB_DIST: z.string().optional(),
  EXAM_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  SCAN_IMAGE_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(90),
  FILES_ORPHAN_SWEEP_HOURS: z.coerce.number().int().min(0).max(8_760).default(24),
  // One lane beside the main one: scoring goes in batches of 200, and more lanes running batches
  // side by side slowed the finishes that feed them (docs/BENCHMARKS.md, issue 15).
  JOBS_QUICK_LANES: z.coerce.number().int().min(0).max(32).default(1),
  PROCTORING_URL: optionalUrl(['http://', 'https://']),
  PROCTORING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PROCTORING_PROVIDER: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/, 'must be a short lowercase name such as proctoredu')
    .default('proctoredu'),
  UPSTREAM_ATTESTA_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || isUpstreamUrl(v), {
      message: 'must be an https:// URL (plain http only to this machine: localhost, 127.0.0.1)',
    }),
  UPSTREAM_ATTESTA_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ATTESTA_RECEIVE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  UPLOAD_URL_ALLOWLIST: z.string().default(''),
  // GET /metrics (plugins/metrics.ts): off (404) unless one of them is set; with both, both must pass.
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters' }),
  METRICS_ALLOW: addressList,
  ANALYTICS_PROVIDER: z
    .string()
    .trim()
    .regex(/^[a-z0-9_-]{1,40}$/, 'a provider name like yandex_metrika')
    .default('yandex_metrika'),
  ANALYTICS_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{0,64}$/, 'letters, digits, - and _ only (it is put into a script)')
    .optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  /**
   * The listen queue. Node's 511 overflows when thousands of browsers connect at 10:00: the kernel
   * drops their SYNs and each retries after 1, 3, 7 s (docs/BENCHMARKS.md, issue 15).
   */
  listenBacklog: number;
  /** On SIGTERM, how long readiness answers 503 while requests are still served, before closing. */
  shutdownDrainMs: number;
  publicUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Connections opened at start and kept open however idle (at most the pool size). */
  databasePoolMin: number;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  sessionSecret: string;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /** With Redis: how long a process keeps a resolved session in memory (0: never). */
  sessionLocalCacheMs: number;
  cookieSecure: boolean;
  trustProxy: boolean | string;
  bodyLimit: number;
  /**
   * Where new files' bytes go (lib/file-storage): undefined picks `disk` on the embedded database
   * and `database` on a PostgreSQL server.
   */
  filesStorage: 'database' | 'disk' | 's3' | undefined;
  /** FILES_S3_*: the bucket of `s3` (with another driver, where files stored there are still read). */
  filesS3: S3Settings | undefined;
  /**
   * The folder of the `disk` file storage: by default `files` beside the embedded database
   * (`<DATA_DIR>/files`; a temporary folder for a database in memory), or `<DATA_DIR>/files`.
   */
  filesDir: string | undefined;
  /** Bytes a participant or guest may keep in uploaded files (answer files, general uploads, feedback). */
  uploadQuotaBytes: number;
  logLevel: Env['LOG_LEVEL'];
  /** Request lines: one at the response (method, redacted URL, status, time), for slow ones only by default. */
  logRequests: Env['LOG_REQUESTS'];
  logSlowRequestMs: number;
  demoData: boolean;
  demoPassword: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  oidc:
    | {
        issuer: string;
        clientId: string;
        clientSecret: string | undefined;
        provider: string;
        scopes: string;
        defaultRole: 'guest' | 'participant';
      }
    | undefined;
  webDist: string | undefined;
  /** How often expired exam works are finished by the server; 0 = never (tests drive it). */
  sweepIntervalMs: number;
  /** How often this instance looks for queue items; 0 = never (tests drive the runner). */
  jobsPollIntervalMs: number;
  /** Days a settled scan batch keeps its page images (docs/paper-forms.md); 0 = kept for ever. */
  scanImageRetentionDays: number;
  /** Every this many hours, blobs this old that no files row names are deleted (0 = never). */
  filesOrphanSweepHours: number;
  /** Extra job lanes that run only quick jobs (one work's scoring) side by side. */
  jobsQuickLanes: number;
  /** Online proctoring service (signed tokens, session URL); undefined when not configured. */
  proctoring: { url: string; secret: string; provider: string } | undefined;
  /** The upstream Attesta instance results are pushed to (importResultToAttesta); undefined: off. */
  upstreamAttesta: { url: string; secret: string } | undefined;
  /** The secret other instances sign results they push here with; undefined: receiving is off. */
  attestaReceiveSecret: string | undefined;
  /** Host names POST /api/files/upload_url may fetch from; empty turns the call off. */
  uploadUrlAllowlist: string[];
  /**
   * `GET /metrics` (Prometheus): undefined when neither METRICS_TOKEN nor METRICS_ALLOW is set (the
   * route is then not registered: 404). `token`: the Bearer token a scrape must send; `allow`:
   * the addresses or CIDR ranges a scrape may come from (the request's address, as TRUST_PROXY
   * makes it); empty: any.
   */
  metrics: { token: string | undefined; allow: string[] } | undefined;
  /** Analytics snippet for the web client; undefined: none. */
  analytics: { provider: string; id: string } | undefined;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the session secret from the environment, or keeps a generated one in the data folder. */
function resolveSessionSecret(env: Env, dataDir: string): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  if (env.NODE_ENV === 'production' && env.DATABASE_URL) {
    // Several instances must share one secret: a generated per-machine file would differ.
    throw new ConfigError([
      'SESSION_SECRET: required in production with DATABASE_URL (at least 32 characters)',
    ]);
  }
  if (env.NODE_ENV === 'test') return 'test-secret-'.padEnd(48, 'x');
  const file = join(dataDir, '.session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  const oidcParts = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    problems.push('OIDC_ISSUER and OIDC_CLIENT_ID: set both to enable external login, or neither');
  }
  if (!!env.PROCTORING_URL !== !!env.PROCTORING_SECRET) {
    problems.push('PROCTORING_URL and PROCTORING_SECRET: set both to enable proctoring, or neither');
  }
  if (!!env.UPSTREAM_ATTESTA_URL !== !!env.UPSTREAM_ATTESTA_SECRET) {
    problems.push(
      'UPSTREAM_ATTESTA_URL and UPSTREAM_ATTESTA_SECRET: set both to push results upstream, or neither',
    );
  }
  if (env.NODE_ENV === 'production' && env.DEMO_PASSWORD === 'demo' && env.DEMO_DATA) {
    problems.push('DEMO_DATA: production must set DEMO_DATA=false (demo accounts have a public password)');
  }
  if (env.NODE_ENV === 'production' && env.DATABASE_URL && !env.SESSION_SECRET) {
    // Several instances must share one secret: a generated per-machine file would differ.
    problems.push('SESSION_SECRET: required in production with DATABASE_URL (at least 32 characters)');
  }
  if (env.FILES_STORAGE === 's3' && !env.FILES_S3_BUCKET)
    problems.push('FILES_S3_BUCKET: required with FILES_STORAGE=s3');
  if (!!env.FILES_S3_ACCESS_KEY_ID !== !!env.FILES_S3_SECRET_ACCESS_KEY) {
    problems.push(
      'FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY: set both, or neither (the AWS SDK then finds them)',
    );
  }
  if (problems.length) throw new ConfigError(problems);

  const dataDir = resolve(env.DATA_DIR);
  let trustProxy: boolean | string = false;
  if (env.TRUST_PROXY === 'true') trustProxy = true;
  else if (env.TRUST_PROXY && env.TRUST_PROXY !== 'false') trustProxy = env.TRUST_PROXY;

  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    listenBacklog: env.LISTEN_BACKLOG,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databasePoolMin: Math.min(env.DATABASE_POOL_MIN ?? env.DATABASE_POOL_SIZE, env.DATABASE_POOL_SIZE),
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    sessionSecret: resolveSessionSecret(env, dataDir),
    sessionIdleMs: env.SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000,
    sessionLocalCacheMs: env.SESSION_LOCAL_CACHE_SECONDS * 1000,
    cookieSecure: env.COOKIE_SECURE ?? env.PUBLIC_URL?.startsWith('https://') ?? false,
    trustProxy,
    bodyLimit: env.BODY_LIMIT_BYTES,
    filesStorage: env.FILES_STORAGE,
    filesDir: env.FILES_DIR === undefined ? undefined : resolve(env.FILES_DIR),
    filesS3: env.FILES_S3_BUCKET
      ? {
          endpoint: env.FILES_S3_ENDPOINT,
          bucket: env.FILES_S3_BUCKET,
          region: env.FILES_S3_REGION,
          accessKeyId: env.FILES_S3_ACCESS_KEY_ID,
          secretAccessKey: env.FILES_S3_SECRET_ACCESS_KEY,
          // A self-hosted service (an endpoint of its own) rarely has a host name per bucket.
          forcePathStyle: env.FILES_S3_FORCE_PATH_STYLE ?? !!env.FILES_S3_ENDPOINT,
        }
      : undefined,
    uploadQuotaBytes: env.UPLOAD_QUOTA_MB * 1024 * 1024,
    logLevel: env.LOG_LEVEL,
    logRequests: env.LOG_REQUESTS,
    logSlowRequestMs: env.LOG_SLOW_REQUEST_MS,
    demoData: env.DEMO_DATA,
    demoPassword: env.DEMO_PASSWORD,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID
        ? {
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            provider: env.OIDC_PROVIDER_NAME,
            scopes: env.OIDC_SCOPES,
            defaultRole: env.OIDC_DEFAULT_ROLE,
          }
        : undefined,
    webDist: env.WEB_DIST,
    sweepIntervalMs: env.EXAM_SWEEP_INTERVAL_MS ?? (env.NODE_ENV === 'test' ? 0 : 5000),
    jobsPollIntervalMs: env.JOBS_POLL_INTERVAL_MS ?? (env.NODE_ENV === 'test' ? 0 : 1000),
    jobsQuickLanes: env.JOBS_QUICK_LANES,
    scanImageRetentionDays: env.SCAN_IMAGE_RETENTION_DAYS,
    filesOrphanSweepHours: env.FILES_ORPHAN_SWEEP_HOURS,
    proctoring:
      env.PROCTORING_URL && env.PROCTORING_SECRET
        ? { url: env.PROCTORING_URL, secret: env.PROCTORING_SECRET, provider: env.PROCTORING_PROVIDER }
        : undefined,
    upstreamAttesta:
      env.UPSTREAM_ATTESTA_URL && env.UPSTREAM_ATTESTA_SECRET
        ? { url: env.UPSTREAM_ATTESTA_URL.replace(/\/+$/, ''), secret: env.UPSTREAM_ATTESTA_SECRET }
        : undefined,
    attestaReceiveSecret: env.ATTESTA_RECEIVE_SECRET,
    uploadUrlAllowlist: env.UPLOAD_URL_ALLOWLIST.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    metrics:
      env.METRICS_TOKEN || env.METRICS_ALLOW.length
        ? { token: env.METRICS_TOKEN, allow: env.METRICS_ALLOW }
        : undefined,
    analytics: env.ANALYTICS_ID ? { provider: env.ANALYTICS_PROVIDER, id: env.ANALYTICS_ID } : undefined,
  };
}

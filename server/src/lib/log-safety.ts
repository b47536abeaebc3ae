/*
 * What may reach a log line. Request lines carry the method, a redacted URL, the address and the
 * user agent — never bodies, cookies or authorization headers. A failed statement is logged by its
 * SQLSTATE and the name of its prepared statement, never its SQL text or parameters (Drizzle's
 * error messages hold both, and PostgreSQL's `detail` quotes the values of a violated key).
 */

/**
 * Query parameters that carry secrets (passwords, tokens, signatures, codes, and the names API
 * clients put a key under: access_token, api_key, apikey, key), whatever their case.
 */
const SECRET_QUERY =
  /([?&](?:pwd|pass|password|token|access_token|api_key|apikey|key|externalAccessToken|providerKey|sig|signature|proof|code|activationCode|registrationCode)=)[^&#]*/gi;
/** Path segments that are secrets themselves: activation and verification codes. */
const SECRET_PATH = /(\/(?:checkActivationCode|verify)\/)[^/?#]+/gi;

export const redactUrl = (url: string) => url.replace(SECRET_PATH, '$1***').replace(SECRET_QUERY, '$1***');

interface DbErrorLike {
  code?: unknown;
  severity?: unknown;
  routine?: unknown;
  statement?: unknown;
  constraint?: unknown;
  table?: unknown;
}

const isSqlState = (code: unknown) => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

/** The database error inside an error (Drizzle wraps the driver's error as its `cause`). */
function databaseErrorOf(err: unknown): DbErrorLike | null {
  for (let e = err as { cause?: unknown } | null, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    const candidate = e as DbErrorLike;
    if (isSqlState(candidate.code) && (candidate.severity !== undefined || candidate.routine !== undefined))
      return candidate;
  }
  return null;
}

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** The `err` serializer of the logger: database errors without SQL, parameters or values. */
export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  const db = databaseErrorOf(err);
  const outer = err as Error & { statement?: unknown };
  if (db || err.name === 'DrizzleQueryError') {
    // Message and stack quote the SQL text and its parameters: neither is kept.
    return {
      type: err.name,
      message: 'database error',
      stack: '',
      sqlState: db?.code,
      statement: outer.statement ?? db?.statement,
      constraint: db?.constraint,
      table: db?.table,
    };
  }
  return {
    type: err.name,
    message: err.message,
    stack: err.stack ?? '',
    ...((err as { code?: unknown }).code !== undefined ? { code: (err as { code?: unknown }).code } : {}),
  };
}

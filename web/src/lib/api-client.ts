/**
 * The one API client (spec §2, §8; docs/design.md §5, §8). Failure rules:
 * - status 401 → the unauthorized page; any other failure status → the general error page;
 * - a failure while sending (network down, fetch throws) → the error page with the error
 *   serialized into the query string (`/error?error={"name":…,"message":…}`);
 * - `suppressRedirect: true` → the caller shows the failure itself (inline, a notice), except a gone
 *   session (401 `unauthorized` or `session_expired`), which always ends on the unauthorized page:
 *   this client owns that rule, no caller writes it again (a wrong password, 401
 *   `invalid_credentials`, stays with the login form);
 * - the synchronous-style calls (user, session, session time, logout) only log status and status
 *   text to the console, because their callers decide themselves (e.g. the guard goes to /login).
 * Every failure is also thrown as an ApiError so the caller's promise never silently resolves.
 */
import type { CallKey, ErrorBody, FieldError } from '@attesta/contract';
import { getAuthToken } from './auth-token';
import { currentAppPath } from './location';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Navigate = (to: string) => void;

/** `status` 0: the request never got an answer (`code` is then `network_error`). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly statusText: string;
  readonly code: string;
  readonly fieldErrors: FieldError[];
  /** Seconds from the `Retry-After` header of a 429/503, when the server sent one. */
  readonly retryAfterSeconds: number | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    statusText?: string;
    fieldErrors?: FieldError[];
    retryAfterSeconds?: number | null;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.code = init.code;
    this.fieldErrors = init.fieldErrors ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/** Calls that only log their failures (spec §8), by their contract keys. Paths compare case-insensitively (docs/design.md §8). */
export const SYNC_STYLE_CALLS = [
  'GET /api/user',
  'GET /api/user/hasSession',
  'GET /api/user/sessionTime',
  'POST /api/Account/LogOff',
] as const satisfies readonly CallKey[];

export function isSyncStyleCall(method: HttpMethod, path: string): boolean {
  const bare = path.split('?')[0]!.toLowerCase().replace(/\/+$/, '');
  const key = `${method} ${bare}`.toLowerCase();
  return SYNC_STYLE_CALLS.some((call) => call.toLowerCase() === key);
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T> {
  method?: HttpMethod;
  query?: Record<string, QueryValue>;
  /** Sent as JSON; a FormData body is sent as multipart. */
  body?: unknown;
  /** Send `body` (a string or a Blob: an XML file...) as is with this Content-Type, not as JSON. */
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The caller shows failures itself: no navigation, but for a gone session (`isSessionGone`). */
  suppressRedirect?: boolean;
  /** Checks the answer (e.g. a zod schema's `parse`); a mismatch is a failure like any other. */
  parse?: (data: unknown) => T;
}

export interface ApiClientConfig {
  fetch?: typeof fetch;
  navigate?: Navigate;
  getToken?: () => string | null;
  logger?: Pick<Console, 'error'>;
  /** Path of the current page, for the return address on the unauthorized page. */
  currentPath?: () => string;
}

/** Pages that a 401 must not use as return address: they are not where the user was working. */
const NO_RETURN_PATHS = ['/login', '/unauthorized', '/error'];

export function unauthorizedPath(currentPath: string): string {
  const bare = currentPath.split(/[?#]/)[0] ?? '/';
  if (NO_RETURN_PATHS.includes(bare) || bare === '/') return '/unauthorized';
  return `/unauthorized?${new URLSearchParams({ returnUrl: currentPath })}`;
}

export function errorPagePath(error: ApiError): string {
  if (error.isNetworkError) {
    const cause = error.cause instanceof Error ? error.cause : error;
    return `/error?error=${encodeURIComponent(JSON.stringify({ name: cause.name, message: cause.message }))}`;
  }
  const params = new URLSearchParams({ status: String(error.status), code: error.code });
  if (error.message) params.set('message', error.message);
  return `/error?${params}`;
}

function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isOptional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const isText = (v: unknown) => typeof v === 'string';

function fieldErrorOf(v: unknown): FieldError | null {
  if (!isRecord(v) || !isText(v.path) || !isText(v.message) || !isOptional(v.code, isText)) return null;
  const params = v.params;
  if (
    !isOptional(
      params,
      (p) =>
        isRecord(p) &&
        Object.values(p).every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x))),
    )
  )
    return null;
  const error: FieldError = { path: v.path as string, message: v.message as string };
  if (v.code !== undefined) error.code = v.code as string;
  if (params !== undefined) error.params = params as FieldError['params'];
  return error;
}

/**
 * The server's error body as the contract's `errorBodySchema` reads it (only its keys kept), or
 * null when the answer has another shape. Checked here without the schema, so the first chunks
 * carry no zod (issue 24); `api-client.test.ts` holds this to the schema's verdicts.
 */
export function errorBodyOf(body: unknown): ErrorBody | null {
  if (!isRecord(body) || !Number.isSafeInteger(body.status) || !isText(body.code) || !isText(body.message))
    return null;
  const out: ErrorBody = {
    status: body.status as number,
    code: body.code as string,
    message: body.message as string,
  };
  if (body.errors === undefined) return out;
  if (!Array.isArray(body.errors)) return null;
  const errors = body.errors.map(fieldErrorOf);
  if (errors.some((e) => e === null)) return null;
  out.errors = errors as FieldError[];
  return out;
}

function errorFromResponse(response: Response, body: unknown): ApiError {
  const parsed = errorBodyOf(body);
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  if (parsed) {
    return new ApiError({
      status: response.status,
      statusText: response.statusText,
      code: parsed.code,
      message: parsed.message,
      fieldErrors: parsed.errors,
      retryAfterSeconds,
    });
  }
  // A proxy or gateway answered (502 page, etc.): keep what the status line says.
  return new ApiError({
    status: response.status,
    statusText: response.statusText,
    code: `http_${response.status}`,
    message: response.statusText || `HTTP ${response.status}`,
    retryAfterSeconds,
  });
}

const SESSION_GONE_CODES: ReadonlySet<string> = new Set(['unauthorized', 'session_expired']);

/** A 401 that says the session is gone (not a refused password or activation code). */
export function isSessionGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && SESSION_GONE_CODES.has(error.code);
}

/** Sends a gone session to the unauthorized page (the transports outside this client call it too). */
export function leaveIfSessionGone<E>(error: E): E {
  if (isSessionGone(error)) apiClient.redirectFor(error as ApiError);
  return error;
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || (error instanceof DOMException && error.name === 'AbortError');
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

export interface ApiClient {
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  post<T = unknown>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions<T>, 'method' | 'body'>,
  ): Promise<T>;
  put<T = unknown>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions<T>, 'method' | 'body'>,
  ): Promise<T>;
  delete<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  /** Applies the default failure rule to an error a caller chose to handle but cannot. */
  redirectFor(error: ApiError): void;
}

export function createApiClient(config: ApiClientConfig = {}): ApiClient {
  const doFetch = (...args: Parameters<typeof fetch>) => (config.fetch ?? globalThis.fetch)(...args);
  const navigate: Navigate = (to) => (config.navigate ?? navigateApp)(to);
  const getToken = config.getToken ?? getAuthToken;
  const logger = config.logger ?? console;
  const currentPath = () => (config.currentPath ?? appPath)();

  const redirectFor = (error: ApiError) => {
    navigate(error.status === 401 ? unauthorizedPath(currentPath()) : errorPagePath(error));
  };

  const fail = (error: ApiError, method: HttpMethod, path: string, suppress: boolean): never => {
    if (isSyncStyleCall(method, path)) {
      logger.error(
        error.isNetworkError
          ? `${method} ${path}: ${error.message}`
          : `${method} ${path}: ${error.status} ${error.statusText}`.trimEnd(),
      );
    } else if (!suppress || isSessionGone(error)) {
      redirectFor(error);
    }
    throw error;
  };

  async function request<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    const method = options.method ?? 'GET';
    const suppress = options.suppressRedirect ?? false;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      // The server's anti-CSRF rule for cookie sessions; harmless on every other call.
      'X-Requested-With': 'XMLHttpRequest',
      ...options.headers,
    };
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.contentType !== undefined) {
      if (typeof options.body !== 'string' && !(options.body instanceof Blob))
        throw new TypeError(`${method} ${path}: a body of type ${options.contentType} is a string or a Blob`);
      headers['Content-Type'] = options.contentType;
      body = options.body;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let response: Response;
    try {
      response = await doFetch(buildUrl(path, options.query), {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: options.signal,
      });
    } catch (error) {
      // A query cancelled by its owner (page left) is not a failure anybody should see.
      if (isAbort(error, options.signal)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return fail(
        new ApiError({ status: 0, code: 'network_error', message, cause: error }),
        method,
        path,
        suppress,
      );
    }

    let data: unknown;
    try {
      data = await readBody(response);
    } catch (error) {
      if (isAbort(error, options.signal)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return fail(
        new ApiError({ status: 0, code: 'network_error', message, cause: error }),
        method,
        path,
        suppress,
      );
    }
    if (!response.ok) return fail(errorFromResponse(response, data), method, path, suppress);
    if (!options.parse) return data as T;
    try {
      return options.parse(data);
    } catch (error) {
      const invalid = new ApiError({
        status: response.status,
        statusText: response.statusText,
        code: 'invalid_response',
        message: 'The server answered in an unexpected shape',
        cause: error,
      });
      return fail(invalid, method, path, suppress);
    }
  }

  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    put: (path, body, options) => request(path, { ...options, method: 'PUT', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
    redirectFor,
  };
}

let navigateApp: Navigate = (to) => {
  // Before the router exists (or outside React) a full page load is the only way to move.
  window.location.assign(`${import.meta.env.BASE_URL.replace(/\/$/, '')}${to}`);
};
let appPath: () => string = () => currentAppPath();

/**
 * The router registers its `navigate` (failures then move inside the SPA without a reload) and
 * its own idea of the current location (the return address for the unauthorized page).
 */
export function setApiNavigator(navigate: Navigate, currentPath?: () => string) {
  navigateApp = navigate;
  if (currentPath) appPath = currentPath;
}

export const apiClient = createApiClient();

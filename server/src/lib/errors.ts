import type { ErrorCode, FieldError } from '@attesta/contract';

/** A failure the client should see: status + stable code + human message (docs/design.md §8). */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: ErrorCode,
    message: string,
    public readonly errors?: FieldError[],
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: ErrorCode, message: string, errors?: FieldError[]) =>
  new AppError(400, code, message, errors);
export const unauthorized = (message = 'Sign in to continue', code: ErrorCode = 'unauthorized') =>
  new AppError(401, code, message);
export const forbidden = (message = 'You do not have access to this', code: ErrorCode = 'forbidden') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (code: ErrorCode, message: string) => new AppError(409, code, message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts, try again later') =>
  new AppError(429, 'too_many_requests', message, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
export const notImplemented = () =>
  new AppError(501, 'not_implemented', 'This call is part of Attesta but is not built yet');

export interface ZodIssueLike {
  code?: string;
  keys?: string[];
  minimum?: unknown;
  maximum?: unknown;
  format?: string;
}

/** The machine-readable part of a validation issue: what the client translates (not the English). */
export function issueCode(issue: ZodIssueLike | undefined): Pick<FieldError, 'code' | 'params'> {
  if (!issue?.code) return {};
  const params: Record<string, string | number> = {};
  for (const key of ['minimum', 'maximum'] as const) {
    const value = issue[key];
    if (typeof value === 'number' || typeof value === 'bigint') params[key] = Number(value);
  }
  if (issue.format) params.format = issue.format;
  return { code: issue.code, ...(Object.keys(params).length ? { params } : {}) };
}

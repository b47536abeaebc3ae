import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, FieldError } from '@attesta/contract';
import { AppError, issueCode, type ZodIssueLike } from '../lib/errors.js';

function send(reply: FastifyReply, body: ErrorBody, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
  return reply.status(body.status).type('application/json; charset=utf-8').send(body);
}

/** Fastify's own client errors, mapped to our codes. */
const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'malformed_json',
    message: 'The request body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'malformed_json', message: 'The JSON body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is too large',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'This content type is not accepted here',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'bad_request',
    message: 'Content-Length does not match the body',
  },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The file is too large' },
  FST_FILES_LIMIT: { status: 413, code: 'payload_too_large', message: 'Too many files' },
  FST_PARTS_LIMIT: { status: 413, code: 'payload_too_large', message: 'Too many parts' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Expected multipart/form-data',
  },
};

/**
 * One error format for every failure: `{ status, code, message, errors? }`. Stack traces and
 * internal messages never reach the client; 5xx are logged with their cause.
 */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      if (error instanceof AppError) {
        return send(
          reply,
          {
            status: error.status,
            code: error.code,
            message: error.message,
            ...(error.errors ? { errors: error.errors } : {}),
          },
          error.headers,
        );
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const context = error.validationContext ?? 'request';
        const errors: FieldError[] = error.validation.map((v) => {
          const path = [context, ...v.instancePath.split('/').filter(Boolean)].join('.');
          const params = v.params as { issue?: ZodIssueLike };
          const issue = params.issue;
          const keys = issue?.code === 'unrecognized_keys' ? issue.keys : undefined;
          return {
            path: keys?.length ? `${path}.${keys.join(',')}` : path,
            message: v.message ?? 'invalid',
            ...issueCode(issue),
          };
        });
        return send(reply, {
          status: 400,
          code: 'validation_failed',
          message: `Invalid ${context}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`.slice(
            0,
            500,
          ),
          errors,
        });
      }
      if (isResponseSerializationError(error)) {
        req.log.error({ err: error, issues: error.cause?.issues }, 'response does not match its schema');
        return send(reply, { status: 500, code: 'internal_error', message: 'Internal error' });
      }
      const known = error.code ? FASTIFY_CODES[error.code] : undefined;
      if (known) return send(reply, known);
      if (error.statusCode === 429) {
        return send(reply, {
          status: 429,
          code: 'too_many_requests',
          message: 'Too many requests, try again later',
        });
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return send(reply, { status: error.statusCode, code: 'bad_request', message: error.message });
      }
      req.log.error({ err: error }, 'unhandled error');
      return send(reply, { status: 500, code: 'internal_error', message: 'Internal error' });
    });
  },
  { name: 'errors' },
);

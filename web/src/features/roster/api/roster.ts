/** The roster import (docs/roster.md): a dry run or the import of one file, and its templates. */
import { rosterImportResultSchema, type RosterImportResult, type RosterRowError } from '@attesta/contract';
import { apiClient, type QueryValue } from '../../../lib/api-client';
import { callPath } from '../../../lib/call';

export type RosterTemplateFormat = 'xlsx' | 'csv';
/** A row error as the page reads it: a code this build does not know yet is kept, and shown generically. */
export type RosterRowErrorView = Omit<RosterRowError, 'code'> & { code: string };
export type RosterImportAnswer = Omit<RosterImportResult, 'errors'> & { errors: RosterRowErrorView[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The answer checked by the contract's schema, except that a row error's `code` may be one a newer
 * server added: one unknown code must not turn a whole report into a failure.
 */
export function parseRosterAnswer(data: unknown): RosterImportAnswer {
  const errors = isRecord(data) && Array.isArray(data.errors) ? (data.errors as unknown[]) : [];
  const codes = errors.map((e) => (isRecord(e) && typeof e.code === 'string' ? e.code : null));
  const known = isRecord(data)
    ? {
        ...data,
        errors: errors.map((e, i) => (codes[i] === null ? e : { ...(e as object), code: 'required' })),
      }
    : data;
  const parsed = rosterImportResultSchema.parse(known);
  return { ...parsed, errors: parsed.errors.map((e, i) => ({ ...e, code: codes[i] ?? e.code })) };
}

/**
 * Sends the file as a multipart form: the field `dryRun` goes first, then the file (the server
 * reads the fields before the file). Failures are handled by the page, never by a redirect.
 */
export function importRoster(file: File, dryRun: boolean): Promise<RosterImportAnswer> {
  const form = new FormData();
  form.append('dryRun', dryRun ? 'true' : 'false');
  form.append('file', file, file.name);
  // The row declares no JSON body: the client sends a FormData body as multipart.
  return apiClient.request(callPath('POST /api/admin/roster/import'), {
    method: 'POST',
    body: form,
    suppressRedirect: true,
    parse: parseRosterAnswer,
  });
}

/** Where the template of a format is downloaded from (path and query for the download helper). */
export function rosterTemplate(format: RosterTemplateFormat): {
  path: string;
  query: Record<string, QueryValue>;
  fileName: string;
} {
  return {
    path: callPath('GET /api/admin/roster/template'),
    query: { format },
    fileName: `roster-template.${format}`,
  };
}

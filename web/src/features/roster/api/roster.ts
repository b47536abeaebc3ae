/**
 * The roster imports (docs/roster.md): students, or staff (organizators, coordinators, workers) —
 * a dry run or the import of one file, and the templates of each.
 */
import { rosterImportResultSchema, staffImportResultSchema } from '@attesta/contract';
import { apiClient, type QueryValue } from '../../../lib/api-client';
import { callPath } from '../../../lib/call';

export type RosterTemplateFormat = 'xlsx' | 'csv';
/** What a file holds: students, or staff. */
export type ImportKind = 'students' | 'staff';
/** A row error as the page reads it: a code this build does not know yet is kept, and shown generically. */
export interface RosterRowErrorView {
  row: number;
  column?: string;
  code: string;
  message: string;
}
/** The answer of either import: counts by kind of record, and the row errors. */
export interface RosterImportAnswer {
  dryRun: boolean;
  created: Record<string, number>;
  updated: Record<string, number>;
  unchanged: number;
  errors: RosterRowErrorView[];
}

const CALLS = {
  students: {
    importPath: callPath('POST /api/admin/roster/import'),
    templatePath: callPath('GET /api/admin/roster/template'),
    schema: rosterImportResultSchema,
    templateName: 'roster-template',
  },
  staff: {
    importPath: callPath('POST /api/admin/roster/staff/import'),
    templatePath: callPath('GET /api/admin/roster/staff/template'),
    schema: staffImportResultSchema,
    templateName: 'staff-template',
  },
} as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The answer checked by the contract's schema of its kind, except that a row error's `code` may be
 * one a newer server added: one unknown code must not turn a whole report into a failure.
 */
export function parseRosterAnswer(data: unknown, kind: ImportKind = 'students'): RosterImportAnswer {
  const errors = isRecord(data) && Array.isArray(data.errors) ? (data.errors as unknown[]) : [];
  const codes = errors.map((e) => (isRecord(e) && typeof e.code === 'string' ? e.code : null));
  const known = isRecord(data)
    ? {
        ...data,
        errors: errors.map((e, i) => (codes[i] === null ? e : { ...(e as object), code: 'required' })),
      }
    : data;
  const parsed = CALLS[kind].schema.parse(known);
  return { ...parsed, errors: parsed.errors.map((e, i) => ({ ...e, code: codes[i] ?? e.code })) };
}

/**
 * Sends the file as a multipart form: the field `dryRun` goes first, then the file (the server
 * reads the fields before the file). Failures are handled by the page, never by a redirect.
 */
export function importRoster(
  file: File,
  dryRun: boolean,
  kind: ImportKind = 'students',
): Promise<RosterImportAnswer> {
  const form = new FormData();
  form.append('dryRun', dryRun ? 'true' : 'false');
  form.append('file', file, file.name);
  // The row declares no JSON body: the client sends a FormData body as multipart.
  return apiClient.request(CALLS[kind].importPath, {
    method: 'POST',
    body: form,
    suppressRedirect: true,
    parse: (data) => parseRosterAnswer(data, kind),
  });
}

/** Where the template of a format is downloaded from (path and query for the download helper). */
export function rosterTemplate(
  format: RosterTemplateFormat,
  kind: ImportKind = 'students',
): {
  path: string;
  query: Record<string, QueryValue>;
  fileName: string;
} {
  return {
    path: CALLS[kind].templatePath,
    query: { format },
    fileName: `${CALLS[kind].templateName}.${format}`,
  };
}

import type { z } from 'zod';
import type { RoleRule } from './roles.js';

/** What a call answers when its answer is not JSON: a file to download, an event stream, a redirect. */
export type RawAnswer = 'file' | 'stream' | 'redirect';

interface RequestSchemas {
  params?: z.ZodType;
  /** Request headers a call reads (beyond session, CSRF and device headers every call may carry). */
  headers?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * A body that is not (only) JSON, said explicitly: the content types it comes as — a multipart
   * upload no schema reads (read as it streams in), or a document (the XML import). The route
   * takes them from here; the server refuses a route that declares others.
   */
  consumes?: readonly ('multipart/form-data' | 'application/json' | 'application/xml' | 'text/xml')[];
}

/**
 * The schemas of one call (its row in `calls/<area>.ts`): what the server validates and the web sends and reads.
 * Every row says what it answers — `response` (the 200 JSON answer, allowlisted), `accepted` (a 202
 * answer: work taken to be done in the background) or `raw` (no JSON: a file, a stream, a redirect)
 * — so a row cannot leave its answer undeclared by forgetting it.
 */
export type CallSchemas = RequestSchemas &
  (
    | { response: z.ZodType; accepted?: never; raw?: never }
    | { accepted: z.ZodType; response?: never; raw?: never }
    | { raw: RawAnswer; response?: never; accepted?: never }
  );

/**
 * One call of the contract, as its area file (`src/calls/<area>.ts`) writes it under its key
 * `'METHOD /path'`: who may call it and what it means (the specification's row, or ours marked
 * `ours: true`), then its schemas. A row without an answer (`response`, `accepted` or `raw`) does
 * not compile.
 */
export type CallRow = {
  /** Who may call it; for a call of the specification exactly as spec/endpoints.tsv says. */
  roles: RoleRule;
  meaning: string;
  /** A GET that changes state: it needs the anti-CSRF header like any POST. */
  stateChanging?: true;
  /** A call Attesta adds beyond the specification (not in spec/endpoints.tsv). */
  ours?: true;
} & CallSchemas;

/** An area's calls: each row under its key, `'GET /api/exam/test/examwork/{id}'`. */
export type CallTable = Record<`${'GET' | 'POST' | 'PUT' | 'DELETE'} /api/${string}`, CallRow>;

/** Roles many of our own rows share. */
export const ADMIN = ['admin'] as const;
export const STAFF = ['organizator', 'coordinator', 'admin'] as const;
/** The room's reads: staff, and the ugnik for the schools of its area (read-only; docs/ugnik.md). */
export const ROOM_WATCHERS = [...STAFF, 'ugnik'] as const;

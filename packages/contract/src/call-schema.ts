import type { z } from 'zod';

/** What a call answers when its answer is not JSON: a file to download, an event stream, a redirect. */
export type RawAnswer = 'file' | 'stream' | 'redirect';

interface RequestSchemas {
  params?: z.ZodType;
  /** Request headers a call reads (beyond session, CSRF and device headers every call may carry). */
  headers?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

/**
 * The schemas of one call (see calls.ts): what the server validates and the web sends and reads.
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

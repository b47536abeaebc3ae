import type { z } from 'zod';

/** The schemas of one call (see calls.ts): what the server validates and the web sends and reads. */
export interface CallSchemas {
  params?: z.ZodType;
  /** Request headers a call reads (beyond session, CSRF and device headers every call may carry). */
  headers?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
}

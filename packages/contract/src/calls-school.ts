/** Rows of CALL_SCHEMAS (calls.ts) for the school staff's calls (coordinator and organizator work places). */
import type { CallSchemas } from './call-schema.js';
import type { CallKey } from './endpoints.js';

export const SCHOOL_CALL_SCHEMAS = {} as const satisfies Partial<Record<CallKey, CallSchemas>>;

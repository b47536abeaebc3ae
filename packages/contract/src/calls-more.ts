/** Rows of CALL_SCHEMAS (calls.ts) for results, expert grading, monitoring, the supervision authority, account and session calls. */
import type { CallSchemas } from './call-schema.js';
import type { CallKey } from './endpoints.js';

export const MORE_CALL_SCHEMAS = {} as const satisfies Partial<Record<CallKey, CallSchemas>>;

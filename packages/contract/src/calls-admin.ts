/** Rows of CALL_SCHEMAS (calls.ts) for the admin's organisation, diagnostics, users, КИМ and queue calls. */
import type { CallSchemas } from './call-schema.js';
import type { CallKey } from './endpoints.js';

export const ADMIN_CALL_SCHEMAS = {} as const satisfies Partial<Record<CallKey, CallSchemas>>;

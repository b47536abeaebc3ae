// Helpers of the call contract that other packages use by name; the calls themselves are in
// `calls/<area>.ts`, assembled in `endpoints.ts` (docs/how-to-add-a-call.md).
export type { CallRow, CallSchemas, CallTable, RawAnswer } from './call-schema.js';
export {
  idPathSchema,
  reasonTextSchema,
  registrationQuerySchema,
  workIdListSchema,
} from './calls-participant.js';

// Every call's schemas, in a chunk of its own that `call()` loads with the first call outside the
// participant's (lib/call.ts).
export { CALL_SCHEMAS } from '@attesta/contract';

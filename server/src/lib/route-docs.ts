import { errorBodySchema } from '@attesta/contract';

/** Documented error answers of a route: the one error body under each status the call can give. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorBodySchema]));

/**
 * The login forms' checks: the two shapes of the contract's `loginBodySchema`. A chunk of its own,
 * loaded by the first submit (`checkLogin`), so the login page paints without zod (issue 24,
 * docs/ARCHITECTURE.md «Runtime validation of answers»).
 */
import { loginBodySchema } from '@attesta/contract';

export const passwordLoginSchema = loginBodySchema.options[0];
export const codeLoginSchema = loginBodySchema.options[1];

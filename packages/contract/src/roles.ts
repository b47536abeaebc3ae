import { z } from 'zod';

// The names themselves are in a module without zod (role-names.ts): the web's first chunks read
// them without loading zod (issue 24).
import { ROLES, type Role } from './role-names.js';
export { ROLES, ROLE_LABELS, type Role } from './role-names.js';

export const roleSchema = z.enum(ROLES);

/**
 * Who may make a call: `anon` — anybody, with or without a session;
 * `any` — any signed-in user; otherwise a list of roles (any one suffices).
 */
export type RoleRule = 'anon' | 'any' | readonly Role[];

/** Staff roles: everybody who works with other people's data. */
export const STAFF_ROLES: readonly Role[] = ['organizator', 'coordinator', 'ugnik', 'expert', 'admin'];

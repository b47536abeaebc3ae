/** Role homes: which work place a user lands in (role priority of the product brief). */
import type { Role } from '@attesta/contract';

/** Roles with a home in the web client, highest priority first; `integration` is a machine role. */
export const HOME_ROLES = [
  'admin',
  'ugnik',
  'coordinator',
  'organizator',
  'expert',
  'guest',
  'participant',
] as const;
export type HomeRole = (typeof HOME_ROLES)[number];

export const ROLE_HOME_PATH: Record<HomeRole, string> = {
  admin: '/admin',
  ugnik: '/ugnik',
  coordinator: '/coordinator',
  organizator: '/organizator',
  expert: '/expert',
  guest: '/guest',
  participant: '/participant',
};

/** Used when a signed-in account has no role with a web home. */
export const NO_ROLE_PATH = '/unauthorized?reason=no_role';

export function isHomeRole(role: string): role is HomeRole {
  return (HOME_ROLES as readonly string[]).includes(role);
}

/**
 * The user's home roles, highest priority first. A guest holds `participant` only while their
 * session sits an open test (docs/open-tests.md): that is the runner's, not a home of theirs.
 */
export function homeRolesOf(roles: readonly Role[]): HomeRole[] {
  const homes = HOME_ROLES.filter((role) => roles.includes(role));
  return roles.includes('guest') ? homes.filter((role) => role !== 'participant') : homes;
}

export function primaryRole(roles: readonly Role[]): HomeRole | null {
  return homeRolesOf(roles)[0] ?? null;
}

export function homePathFor(roles: readonly Role[]): string {
  const role = primaryRole(roles);
  return role ? ROLE_HOME_PATH[role] : NO_ROLE_PATH;
}

/** The home role a path belongs to (`/coordinator/...` → coordinator), if any. */
export function roleOfPath(pathname: string): HomeRole | null {
  const first = pathname.split('/')[1] ?? '';
  return isHomeRole(first) ? first : null;
}

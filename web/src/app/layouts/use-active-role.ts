import type { CurrentUser } from '@attesta/contract';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { homeRolesOf, isHomeRole, roleOfPath, type HomeRole } from '../../lib/roles';

const ACTIVE_ROLE_KEY = 'attesta.activeRole';

function readStoredRole(): string | null {
  try {
    return sessionStorage.getItem(ACTIVE_ROLE_KEY);
  } catch {
    return null;
  }
}

/**
 * The role the user is working as: the home they are under, or — on shared pages such as the
 * password change — the one they came from (kept per tab), or their highest-priority role.
 */
export function useActiveRole(user: CurrentUser): HomeRole | null {
  const { pathname } = useLocation();
  const roles = homeRolesOf(user.roles);
  const fromPath = roleOfPath(pathname);

  useEffect(() => {
    if (!fromPath) return;
    try {
      sessionStorage.setItem(ACTIVE_ROLE_KEY, fromPath);
    } catch {
      // Storage may be unavailable (private mode); the role then follows the priority order.
    }
  }, [fromPath]);

  if (fromPath && roles.includes(fromPath)) return fromPath;
  const stored = readStoredRole();
  if (stored && isHomeRole(stored) && roles.includes(stored)) return stored;
  return roles[0] ?? null;
}

/** The roster import screen of admins and coordinators: routes under each role's home and its navigation. */
import type { RouteObject } from 'react-router';
import { RosterImportPage } from './components/roster-import-page';
import { useRosterT } from './locales';

/** Children of each role's home route (its role guard applies). */
export const rosterRoutes = {
  admin: [{ path: 'roster', element: <RosterImportPage role="admin" /> }],
  coordinator: [{ path: 'roster', element: <RosterImportPage role="coordinator" /> }],
} satisfies Record<string, RouteObject[]>;

export function useRosterNavItems(): Record<'admin' | 'coordinator', { to: string; label: string }[]> {
  const t = useRosterT();
  return {
    admin: [{ to: '/admin/roster', label: t('nav') }],
    coordinator: [{ to: '/coordinator/roster', label: t('nav') }],
  };
}

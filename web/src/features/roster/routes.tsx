/** The roster import screen of admins and coordinators: routes under each role's home and its navigation. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/ui/lazy-page';

const RosterImportPage = lazyPage(() => import('./components/roster-import-page'), 'RosterImportPage');

/** Children of each role's home route (its role guard applies). */
export const rosterRoutes = {
  admin: [{ path: 'roster', element: <RosterImportPage role="admin" /> }],
  coordinator: [{ path: 'roster', element: <RosterImportPage role="coordinator" /> }],
} satisfies Record<string, RouteObject[]>;

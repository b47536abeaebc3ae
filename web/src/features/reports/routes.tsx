/**
 * The report screens (issue 12): `reports` under the coordinator's, ugnik's and admin's homes, and
 * the organizator's `protocol`. The pages (and the chart library) load when first opened.
 */
import { lazyPage } from '../../components/ui/lazy-page';
import type { RouteObject } from 'react-router';

const ReportsPage = lazyPage(() => import('./components/reports-page'), 'ReportsPage');
const OrganizatorProtocolPage = lazyPage(
  () => import('./components/protocol-page'),
  'OrganizatorProtocolPage',
);

/** Children of each role's home route (its role guard applies). */
export const reportsRoutes = {
  coordinator: [{ path: 'reports', element: <ReportsPage role="coordinator" /> }],
  ugnik: [{ path: 'reports', element: <ReportsPage role="ugnik" /> }],
  admin: [{ path: 'reports', element: <ReportsPage role="admin" /> }],
  organizator: [{ path: 'protocol', element: <OrganizatorProtocolPage /> }],
} satisfies Record<string, RouteObject[]>;

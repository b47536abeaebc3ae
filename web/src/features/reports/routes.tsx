/**
 * The report screens (issue 12): `reports` under the coordinator's, ugnik's and admin's homes, and
 * the organizator's `protocol`. The pages (and the chart library) load when first opened.
 */
import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const ReportsPage = lazy(() => import('./components/reports-page').then((m) => ({ default: m.ReportsPage })));
const OrganizatorProtocolPage = lazy(() =>
  import('./components/protocol-page').then((m) => ({ default: m.OrganizatorProtocolPage })),
);

/** Children of each role's home route (its role guard applies). */
export const reportsRoutes = {
  coordinator: [{ path: 'reports', element: <ReportsPage role="coordinator" /> }],
  ugnik: [{ path: 'reports', element: <ReportsPage role="ugnik" /> }],
  admin: [{ path: 'reports', element: <ReportsPage role="admin" /> }],
  organizator: [{ path: 'protocol', element: <OrganizatorProtocolPage /> }],
} satisfies Record<string, RouteObject[]>;

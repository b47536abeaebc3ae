/** The admin work place: routes under `/admin` and its navigation items. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/ui/lazy-page';

const ApiDocsPage = lazyPage(() => import('./components/api-docs-page'), 'ApiDocsPage');
const ApiKeysPage = lazyPage(() => import('./components/api-keys-page'), 'ApiKeysPage');
const AuditPage = lazyPage(() => import('./components/audit-page'), 'AuditPage');
const ContentPage = lazyPage(() => import('./components/content-page'), 'ContentPage');
const AdminDiagnosticCreatePage = lazyPage(
  () => import('./components/diagnostic-create-page'),
  'AdminDiagnosticCreatePage',
);
const AdminDiagnosticPage = lazyPage(() => import('./components/diagnostic-page'), 'AdminDiagnosticPage');
const AdminDiagnosticsPage = lazyPage(() => import('./components/diagnostics-page'), 'AdminDiagnosticsPage');
const QueuePage = lazyPage(() => import('./components/queue-page'), 'QueuePage');
const SchoolPage = lazyPage(() => import('./components/school-page'), 'SchoolPage');
const SchoolsPage = lazyPage(() => import('./components/schools-page'), 'SchoolsPage');
const StudentsPage = lazyPage(() => import('./components/students-page'), 'StudentsPage');
const UsersPage = lazyPage(() => import('./components/users-page'), 'UsersPage');
const WorkersPage = lazyPage(() => import('./components/workers-page'), 'WorkersPage');

/** Children of the `/admin` route (its guard applies to all of them). */
export const adminRoutes: RouteObject[] = [
  { path: 'users', element: <UsersPage /> },
  { path: 'schools', element: <SchoolsPage /> },
  { path: 'schools/:id', element: <SchoolPage /> },
  { path: 'students', element: <StudentsPage /> },
  { path: 'workers', element: <WorkersPage /> },
  { path: 'diagnostics', element: <AdminDiagnosticsPage /> },
  { path: 'diagnostics/new', element: <AdminDiagnosticCreatePage /> },
  { path: 'diagnostics/:id', element: <AdminDiagnosticPage /> },
  { path: 'queue', element: <QueuePage /> },
  { path: 'audit', element: <AuditPage /> },
  { path: 'api-docs', element: <ApiDocsPage /> },
  { path: 'api-keys', element: <ApiKeysPage /> },
];

/**
 * The read-only overview of variants (missing keys) and participants' pause rules: a page of the
 * КИМ section (`/admin/content/overview`), which app/ mounts among the content feature's routes.
 */
export const adminContentOverviewRoute: RouteObject = { path: 'overview', element: <ContentPage /> };

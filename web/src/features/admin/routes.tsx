/** The admin work place: routes under `/admin` and its navigation items. */
import type { RouteObject } from 'react-router';
import { ApiDocsPage } from './components/api-docs-page';
import { ApiKeysPage } from './components/api-keys-page';
import { AuditPage } from './components/audit-page';
import { ContentPage } from './components/content-page';
import { AdminDiagnosticCreatePage } from './components/diagnostic-create-page';
import { AdminDiagnosticPage } from './components/diagnostic-page';
import { AdminDiagnosticsPage } from './components/diagnostics-page';
import { QueuePage } from './components/queue-page';
import { SchoolPage } from './components/school-page';
import { SchoolsPage } from './components/schools-page';
import { StudentsPage } from './components/students-page';
import { UsersPage } from './components/users-page';
import { WorkersPage } from './components/workers-page';
import { useAdminT } from './i18n';

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

export function useAdminNavItems(): { to: string; label: string }[] {
  const t = useAdminT();
  return [
    { to: '/admin/users', label: t('nav.users') },
    { to: '/admin/schools', label: t('nav.schools') },
    { to: '/admin/students', label: t('nav.students') },
    { to: '/admin/workers', label: t('nav.workers') },
    { to: '/admin/content', label: t('nav.content') },
    { to: '/admin/diagnostics', label: t('nav.diagnostics') },
    { to: '/admin/queue', label: t('nav.queue') },
    { to: '/admin/audit', label: t('nav.audit') },
    { to: '/admin/api-docs', label: t('nav.apiDocs') },
    { to: '/admin/api-keys', label: t('nav.apiKeys') },
  ];
}

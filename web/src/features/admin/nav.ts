/** The navigation entries of the admin work place, apart from its routes: the app loads them (and their texts) only for the roles that have them (app/layouts/work-place-nav.tsx). */
import { useAdminT } from './i18n';

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

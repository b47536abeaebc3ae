/** The navigation entries of the reports work place, apart from its routes: the app loads them (and their texts) only for the roles that have them (app/layouts/work-place-nav.tsx). */
import { useReportsT } from './locales';

export function useReportsNavItems(): Record<
  'coordinator' | 'ugnik' | 'admin' | 'organizator',
  { to: string; label: string }[]
> {
  const { t } = useReportsT();
  const reports = t('reports.nav.reports');
  return {
    coordinator: [{ to: '/coordinator/reports', label: reports }],
    ugnik: [{ to: '/ugnik/reports', label: reports }],
    admin: [{ to: '/admin/reports', label: reports }],
    organizator: [{ to: '/organizator/protocol', label: t('reports.nav.protocol') }],
  };
}

/** The navigation entries of the roster work place, apart from its routes: the app loads them (and their texts) only for the roles that have them (app/layouts/work-place-nav.tsx). */
import { useRosterT } from './locales';

export function useRosterNavItems(): Record<'admin' | 'coordinator', { to: string; label: string }[]> {
  const t = useRosterT();
  return {
    admin: [{ to: '/admin/roster', label: t('nav') }],
    coordinator: [{ to: '/coordinator/roster', label: t('nav') }],
  };
}

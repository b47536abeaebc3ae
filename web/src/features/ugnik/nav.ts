/** The navigation entries of the ugnik work place, apart from its routes: the app loads them (and their texts) only for the roles that have them (app/layouts/work-place-nav.tsx). */
import { useUgnikT } from './i18n';

export function useUgnikNavItems(): { to: string; label: string }[] {
  const t = useUgnikT();
  return [
    { to: '/ugnik/diagnostics', label: t('nav.diagnostics') },
    { to: '/ugnik/area', label: t('nav.area') },
    { to: '/ugnik/room', label: t('nav.room') },
  ];
}

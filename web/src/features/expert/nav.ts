/** The navigation entries of the expert work place, apart from its routes: the app loads them (and their texts) only for the roles that have them (app/layouts/work-place-nav.tsx). */
import { useBundleT } from '../../components/data-table/use-bundle-t';
import { expertBundle } from './locales';

export function useExpertNavItems(): { to: string; label: string }[] {
  const { t } = useBundleT(expertBundle);
  return [
    { to: '/expert/grading', label: t('expert.nav.grading') },
    { to: '/expert/profile', label: t('expert.nav.profile') },
  ];
}

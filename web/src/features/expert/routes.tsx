/** The expert's work place: grading and profile under `/expert`, and its navigation items. */
import type { RouteObject } from 'react-router';
import { useBundleT } from '../../components/data-table/use-bundle-t';
import { GradingPage } from './components/grading-page';
import { expertBundle } from './locales';
import { ExpertProfilePage } from './components/profile-page';

/** Children of the `/expert` route (its role guard applies to all of them). */
export const expertRoutes: RouteObject[] = [
  { path: 'grading', element: <GradingPage /> },
  { path: 'profile', element: <ExpertProfilePage /> },
];

export function useExpertNavItems(): { to: string; label: string }[] {
  const { t } = useBundleT(expertBundle);
  return [
    { to: '/expert/grading', label: t('expert.nav.grading') },
    { to: '/expert/profile', label: t('expert.nav.profile') },
  ];
}

/** The expert's work place: grading and profile under `/expert`, and its navigation items. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/ui/lazy-page';

const GradingPage = lazyPage(() => import('./components/grading-page'), 'GradingPage');
const ExpertProfilePage = lazyPage(() => import('./components/profile-page'), 'ExpertProfilePage');

/** Children of the `/expert` route (its role guard applies to all of them). */
export const expertRoutes: RouteObject[] = [
  { path: 'grading', element: <GradingPage /> },
  { path: 'profile', element: <ExpertProfilePage /> },
];

/** The scans screens of organizators, coordinators and admins: upload and review, under each role's home. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/ui/lazy-page';
import type { ScanRole } from './scan-role';

const ScanUploadPage = lazyPage(() => import('./components/scan-upload-page'), 'ScanUploadPage');
const ScanReviewPage = lazyPage(() => import('./components/scan-review-page'), 'ScanReviewPage');

const routesOf = (role: ScanRole): RouteObject[] => [
  { path: 'scans', element: <ScanUploadPage role={role} /> },
  { path: 'scans/review', element: <ScanReviewPage role={role} /> },
];

/** Children of each role's home route (its role guard applies). */
export const scansRoutes = {
  admin: routesOf('admin'),
  coordinator: routesOf('coordinator'),
  organizator: routesOf('organizator'),
} satisfies Record<ScanRole, RouteObject[]>;

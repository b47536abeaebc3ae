/** The supervision authority's (УГНиК) work place: routes under `/ugnik` and its navigation items. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/ui/lazy-page';

const UgnikDiagnosticCreatePage = lazyPage(
  () => import('./components/diagnostic-create-page'),
  'UgnikDiagnosticCreatePage',
);
const UgnikDiagnosticPage = lazyPage(() => import('./components/diagnostic-page'), 'UgnikDiagnosticPage');
const UgnikDiagnosticsPage = lazyPage(() => import('./components/diagnostics-page'), 'UgnikDiagnosticsPage');
const UgnikAreaDiagnosticsPage = lazyPage(
  () => import('./components/area-diagnostics-page'),
  'UgnikAreaDiagnosticsPage',
);

/**
 * Children of the `/ugnik` route (its guard applies to all of them). `/ugnik/room` is mounted by the
 * app (app/routes/room.tsx): it composes this feature's page with the monitoring feature's room.
 */
export const ugnikRoutes: RouteObject[] = [
  { path: 'diagnostics', element: <UgnikDiagnosticsPage /> },
  { path: 'diagnostics/new', element: <UgnikDiagnosticCreatePage /> },
  { path: 'diagnostics/:id', element: <UgnikDiagnosticPage /> },
  { path: 'area', element: <UgnikAreaDiagnosticsPage /> },
];

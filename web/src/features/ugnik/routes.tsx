/** The supervision authority's (УГНиК) work place: routes under `/ugnik` and its navigation items. */
import type { RouteObject } from 'react-router';
import { UgnikDiagnosticCreatePage } from './components/diagnostic-create-page';
import { UgnikDiagnosticPage } from './components/diagnostic-page';
import { UgnikDiagnosticsPage } from './components/diagnostics-page';
import { UgnikAreaDiagnosticsPage } from './components/area-diagnostics-page';
import { useUgnikT } from './i18n';

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

export function useUgnikNavItems(): { to: string; label: string }[] {
  const t = useUgnikT();
  return [
    { to: '/ugnik/diagnostics', label: t('nav.diagnostics') },
    { to: '/ugnik/area', label: t('nav.area') },
    { to: '/ugnik/room', label: t('nav.room') },
  ];
}

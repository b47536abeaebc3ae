/** Results work places: the participant's own result and the publication page of coordinators and admins. */
import type { RouteObject } from 'react-router';
import { useBundleT } from '../../components/data-table/use-bundle-t';
import { resultsNavBundle } from './nav-locales';
import { lazyPage } from '../../components/ui/lazy-page';

const OpenAttemptPage = lazyPage(() => import('./components/open-attempt-page'), 'OpenAttemptPage');
const PublishPage = lazyPage(() => import('./components/publish-page'), 'PublishPage');
const ResultPage = lazyPage(() => import('./components/result-page'), 'ResultPage');
const VerifyPage = lazyPage(() => import('./components/verify-page'), 'VerifyPage');

/** Children of each role's home route (its role guard applies). */
/** Public: the QR code of a result document leads here. */
export const verifyRoute: RouteObject = { path: 'verify/:code', element: <VerifyPage /> };

export const resultsRoutes = {
  participant: [{ path: 'result', element: <ResultPage /> }],
  /** A guest's attempt at an open test (docs/open-tests.md). */
  guest: [{ path: 'attempts/:id', element: <OpenAttemptPage /> }],
  coordinator: [{ path: 'results', element: <PublishPage role="coordinator" /> }],
  admin: [{ path: 'results', element: <PublishPage role="admin" /> }],
} satisfies Record<string, RouteObject[]>;

export function useResultsNavItems(): Record<
  'participant' | 'coordinator' | 'admin',
  { to: string; label: string }[]
> {
  const { t } = useBundleT(resultsNavBundle);
  return {
    participant: [{ to: '/participant/result', label: t('results.nav.result') }],
    coordinator: [{ to: '/coordinator/results', label: t('results.nav.publish') }],
    admin: [{ to: '/admin/results', label: t('results.nav.publish') }],
  };
}

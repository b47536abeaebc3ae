import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/ui/lazy-page';

const CoordinatorDiagnosticsPage = lazyPage(
  () => import('./components/coordinator-diagnostics-page'),
  'CoordinatorDiagnosticsPage',
);
const ExpertCoverageNotice = lazyPage(
  () => import('./components/expert-coverage-notice'),
  'ExpertCoverageNotice',
);
const OrganizatorDiagnosticsPage = lazyPage(
  () => import('./components/organizator-diagnostics-page'),
  'OrganizatorDiagnosticsPage',
);
const OrganizatorsPage = lazyPage(() => import('./components/organizators-page'), 'OrganizatorsPage');
const ParticipantsPage = lazyPage(() => import('./components/participants-page'), 'ParticipantsPage');
const QueuePage = lazyPage(() => import('./components/queue-page'), 'QueuePage');
const RegistrationTools = lazyPage(() => import('./components/registration-tools'), 'RegistrationTools');
const BuildingsPage = lazyPage(() => import('./components/school-lists'), 'BuildingsPage');
const ClassesPage = lazyPage(() => import('./components/school-lists'), 'ClassesPage');
const StudentsPage = lazyPage(() => import('./components/students-page'), 'StudentsPage');
const WorkerTestsPage = lazyPage(() => import('./components/worker-tests-page'), 'WorkerTestsPage');
const WorkersPage = lazyPage(() => import('./components/workers-page'), 'WorkersPage');

/** Children of `/coordinator` (the role guard sits on the parent route). */
export const coordinatorRoutes: RouteObject[] = [
  { path: 'students', element: <StudentsPage role="coordinator" /> },
  { path: 'classes', element: <ClassesPage role="coordinator" /> },
  { path: 'buildings', element: <BuildingsPage role="coordinator" /> },
  { path: 'organizators', element: <OrganizatorsPage /> },
  { path: 'diagnostics', element: <CoordinatorDiagnosticsPage /> },
  {
    path: 'diagnostics/:diagnosticId',
    element: (
      <ParticipantsPage
        role="coordinator"
        basePath="/coordinator/diagnostics"
        tools={(d) => <RegistrationTools diagnostic={d} />}
        notice={(d) => <ExpertCoverageNotice diagnosticId={d.id} />}
      />
    ),
  },
  { path: 'queue', element: <QueuePage /> },
  { path: 'worker-tests', element: <WorkerTestsPage /> },
  { path: 'workers', element: <WorkersPage /> },
];

/** Children of `/organizator` (the role guard sits on the parent route). */
export const organizatorRoutes: RouteObject[] = [
  { path: 'classes', element: <ClassesPage role="organizator" /> },
  { path: 'students', element: <StudentsPage role="organizator" /> },
  { path: 'diagnostics', element: <OrganizatorDiagnosticsPage /> },
  {
    path: 'diagnostics/:diagnosticId',
    element: <ParticipantsPage role="organizator" basePath="/organizator/diagnostics" />,
  },
];

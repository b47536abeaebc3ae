import { useTranslation } from 'react-i18next';
import type { RouteObject } from 'react-router';
import { CoordinatorDiagnosticsPage } from './components/coordinator-diagnostics-page';
import { ExpertCoverageNotice } from './components/expert-coverage-notice';
import { OrganizatorDiagnosticsPage } from './components/organizator-diagnostics-page';
import { OrganizatorsPage } from './components/organizators-page';
import { ParticipantsPage } from './components/participants-page';
import { QueuePage } from './components/queue-page';
import { RegistrationTools } from './components/registration-tools';
import { BuildingsPage, ClassesPage } from './components/school-lists';
import { StudentsPage } from './components/students-page';
import { WorkerTestsPage } from './components/worker-tests-page';
import { WorkersPage } from './components/workers-page';
import { coordinatorNavLabels, organizatorNavLabels } from './locales';

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

const COORDINATOR_NAV = [
  'students',
  'classes',
  'buildings',
  'organizators',
  'diagnostics',
  'queue',
  'workerTests',
  'workers',
] as const;
const COORDINATOR_PATH: Record<(typeof COORDINATOR_NAV)[number], string> = {
  students: 'students',
  classes: 'classes',
  buildings: 'buildings',
  organizators: 'organizators',
  diagnostics: 'diagnostics',
  queue: 'queue',
  workerTests: 'worker-tests',
  workers: 'workers',
};

/** Navigation entries of the coordinator's work place, in the interface language. */
export function useCoordinatorNavItems(): { to: string; label: string }[] {
  const { i18n } = useTranslation();
  const labels = i18n.language === 'en' ? coordinatorNavLabels.en : coordinatorNavLabels.ru;
  return COORDINATOR_NAV.map((key) => ({ to: `/coordinator/${COORDINATOR_PATH[key]}`, label: labels[key] }));
}

/** Navigation entries of the organizator's work place, in the interface language. */
export function useOrganizatorNavItems(): { to: string; label: string }[] {
  const { i18n } = useTranslation();
  const labels = i18n.language === 'en' ? organizatorNavLabels.en : organizatorNavLabels.ru;
  return (['classes', 'students', 'diagnostics'] as const).map((key) => ({
    to: `/organizator/${key}`,
    label: labels[key],
  }));
}

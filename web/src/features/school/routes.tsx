import { useTranslation } from 'react-i18next';
import type { RouteObject } from 'react-router';
import { ParticipantsPage } from '../../components/staff/participants-page';
import { BuildingsPage, ClassesPage } from '../../components/staff/school-lists';
import { StudentsPage } from '../../components/staff/students-page';
import { CoordinatorDiagnosticsPage } from './diagnostics-page';
import { coordinatorNavLabels } from './locales';
import { OrganizatorsPage } from './organizators-page';
import { QueuePage } from './queue-page';
import { RegistrationTools } from './registration-tools';
import { WorkerTestsPage } from './worker-tests-page';

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
      />
    ),
  },
  { path: 'queue', element: <QueuePage /> },
  { path: 'worker-tests', element: <WorkerTestsPage /> },
];

const NAV = [
  'students',
  'classes',
  'buildings',
  'organizators',
  'diagnostics',
  'queue',
  'workerTests',
] as const;
const PATH: Record<(typeof NAV)[number], string> = {
  students: 'students',
  classes: 'classes',
  buildings: 'buildings',
  organizators: 'organizators',
  diagnostics: 'diagnostics',
  queue: 'queue',
  workerTests: 'worker-tests',
};

/** Navigation entries of the coordinator's work place, in the interface language. */
export function useCoordinatorNavItems(): { to: string; label: string }[] {
  const { i18n } = useTranslation();
  const labels = i18n.language === 'en' ? coordinatorNavLabels.en : coordinatorNavLabels.ru;
  return NAV.map((key) => ({ to: `/coordinator/${PATH[key]}`, label: labels[key] }));
}

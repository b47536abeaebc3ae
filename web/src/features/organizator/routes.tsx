import { useTranslation } from 'react-i18next';
import type { RouteObject } from 'react-router';
import { ParticipantsPage } from '../../components/staff/participants-page';
import { ClassesPage } from '../../components/staff/school-lists';
import { StudentsPage } from '../../components/staff/students-page';
import { OrganizatorDiagnosticsPage } from './diagnostics-page';
import { organizatorNavLabels } from './locales';

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

/** Navigation entries of the organizator's work place, in the interface language. */
export function useOrganizatorNavItems(): { to: string; label: string }[] {
  const { i18n } = useTranslation();
  const labels = i18n.language === 'en' ? organizatorNavLabels.en : organizatorNavLabels.ru;
  return (['classes', 'students', 'diagnostics'] as const).map((key) => ({
    to: `/organizator/${key}`,
    label: labels[key],
  }));
}

/** The navigation entries of the school work place, apart from its routes: the app loads them (and their texts) only for the roles that have them (app/layouts/work-place-nav.tsx). */
import { useTranslation } from 'react-i18next';
import { coordinatorNavLabels, organizatorNavLabels } from './locales';

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

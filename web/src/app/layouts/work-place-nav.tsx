/**
 * The navigation entries of a staff role's work places, with their texts. AppLayout loads this
 * module only for such a role: the texts of every staff feature stay off the participant's path
 * (docs/BENCHMARKS.md, «The participant's path»).
 */
import { useAdminNavItems } from '../../features/admin/nav';
import { useExpertNavItems } from '../../features/expert/nav';
import { useFeedbackNavItems } from '../../features/feedback/routes';
import { useReportsNavItems } from '../../features/reports/nav';
import { useResultsNavItems } from '../../features/results/routes';
import { useRosterNavItems } from '../../features/roster/nav';
import { useScansNavItems } from '../../features/scans/nav';
import { useCoordinatorNavItems, useOrganizatorNavItems } from '../../features/school/nav';
import { useUgnikNavItems } from '../../features/ugnik/nav';
import type { HomeRole } from '../../lib/roles';
import { NavEntry, type NavItem } from './work-place-nav-entry';

export function WorkPlaceNav({ role }: { role: HomeRole }) {
  const resultsNav = useResultsNavItems();
  const reportsNav = useReportsNavItems();
  const rosterNav = useRosterNavItems();
  const scansNav = useScansNavItems();
  const feedbackNav = useFeedbackNavItems();
  const workPlaceNav: Partial<Record<HomeRole, NavItem[]>> = {
    admin: [
      ...useAdminNavItems(),
      ...rosterNav.admin,
      ...scansNav.admin,
      ...resultsNav.admin,
      ...reportsNav.admin,
      ...feedbackNav.admin,
    ],
    ugnik: [...useUgnikNavItems(), ...reportsNav.ugnik],
    coordinator: [
      ...useCoordinatorNavItems(),
      ...rosterNav.coordinator,
      ...scansNav.coordinator,
      ...resultsNav.coordinator,
      ...reportsNav.coordinator,
    ],
    organizator: [...useOrganizatorNavItems(), ...scansNav.organizator, ...reportsNav.organizator],
    expert: useExpertNavItems(),
  };
  return (workPlaceNav[role] ?? []).map((item) => <NavEntry key={item.to} item={item} />);
}

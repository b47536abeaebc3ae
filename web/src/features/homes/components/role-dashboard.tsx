/** Which dashboard a role's home shows; the guest's home is its open tests (composed by app/). */
import type { HomeRole } from '../../../lib/roles';
import { SchoolDashboard } from './school-dashboard';
import { AdminDashboard, ExpertDashboard, UgnikDashboard } from './staff-dashboards';

export function RoleDashboard({ role }: { role: Exclude<HomeRole, 'participant'> }) {
  switch (role) {
    case 'coordinator':
    case 'organizator':
      return <SchoolDashboard role={role} />;
    case 'expert':
      return <ExpertDashboard />;
    case 'admin':
      return <AdminDashboard />;
    case 'ugnik':
      return <UgnikDashboard />;
    default:
      return null;
  }
}

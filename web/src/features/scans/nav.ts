/** The navigation entries of the scans screens, apart from their routes: the app loads them (and their texts) only for the roles that have them (app/layouts/work-place-nav.tsx). */
import { useScansT } from './locales';
import { reviewPath, scansPath, type ScanRole } from './scan-role';

export function useScansNavItems(): Record<ScanRole, { to: string; label: string; end?: boolean }[]> {
  const t = useScansT();
  const items = (role: ScanRole) => [
    // The upload's entry is not marked on the review's page below it.
    { to: scansPath(role), label: t('nav.upload'), end: true },
    { to: reviewPath(role), label: t('nav.review') },
  ];
  return { admin: items('admin'), coordinator: items('coordinator'), organizator: items('organizator') };
}

import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { MenuButton } from '../../components/lite/menu-button';
import '../../components/lite/layout.css';
import { lazyPage } from '../../components/ui/lazy-page';
import { FullPageLoader } from '../../components/ui/full-page-loader';
import { useResultsNavItems } from '../../features/results/routes';
import { LanguageSwitch } from '../../components/ui/language-switch';
import { FeedbackButton } from '../../features/feedback/routes';
import { HelpButton } from '../../features/help/components/help-button';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { homeRolesOf, ROLE_HOME_PATH, type HomeRole } from '../../lib/roles';
import { currentUserQuery } from '../../lib/session';
import { LogoffButton } from './logoff-button';
import { NavigationProgress } from './navigation-progress';
import { RoleSwitch } from './role-switch';
import { SessionTimer } from './session-timer';
import { SkipLink } from './skip-link';
import { useActiveRole } from './use-active-role';
import { NavEntry, type NavItem } from './work-place-nav-entry';

// A staff role's work places and their texts load with its first page, never for a participant.
const WorkPlaceNav = lazyPage(() => import('./work-place-nav'), 'WorkPlaceNav');

/**
 * Sections of the active role that exist today. Work places of later issues are added here when
 * they are built — never as dead links.
 */
function navItemsFor(
  role: HomeRole | null,
  t: (key: 'nav.home' | 'nav.changePassword') => string,
): NavItem[] {
  if (!role) return [];
  const items: NavItem[] = [{ to: ROLE_HOME_PATH[role], label: t('nav.home'), end: true }];
  // Participants sign in with an activation code and have no password to change.
  if (role !== 'participant') items.push({ to: '/account/password', label: t('nav.changePassword') });
  return items;
}

/**
 * Signed-in pages: header with the user, role, session time, language and log off; role navigation.
 * Our own light shell (components/lite/layout.css) with Mantine AppShell's geometry, for every
 * role: the participant's start page is one of these pages, and AppShell, Burger and NavLink stay
 * off their path (issue 24).
 */
export function AppLayout() {
  const { t } = useTranslation();
  const { data: user } = useSuspenseQuery(currentUserQuery());
  const [opened, { toggle, close }] = useDisclosure(false);
  const navId = useId();
  // Below the `sm` breakpoint (and at 200 % zoom) the header keeps the menu, the name and the bell;
  // the role, help, feedback and log off move into the menu, so nothing is pushed off a 320 px
  // screen (WCAG 1.4.10). Unknown (no matchMedia) counts as wide.
  const narrow = useMediaQuery('(max-width: 47.99em)') ?? false;
  const activeRole = useActiveRole(user);
  const roles = homeRolesOf(user.roles);
  const { pathname } = useLocation();
  const participantNav = useResultsNavItems().participant;
  // On narrow screens the menu is an overlay; leaving it open over the next page would hide it.
  useEffect(() => {
    close();
  }, [pathname, close]);

  return (
    <div className="lite-shell" data-nav-open={opened || undefined}>
      <SkipLink />
      <NavigationProgress />
      <header className="lite-shell__header">
        <div className="lite-shell__group">
          <MenuButton
            opened={opened}
            onClick={toggle}
            label={t('app.menu')}
            controls={navId}
            className="lite-shell__menu-button"
          />
          <Link to={activeRole ? ROLE_HOME_PATH[activeRole] : '/'} className="lite-shell__brand">
            {t('app.name')}
          </Link>
          {!narrow && <RoleSwitch roles={roles} active={activeRole} />}
        </div>
        <div className="lite-shell__group lite-shell__group--end">
          <div className="lite-shell__user">
            <span className="lite-shell__user-name" data-testid="user-name">
              {user.displayName}
            </span>
            <SessionTimer />
          </div>
          {/* The runner has its own shell (runner-layout): a participant taking a test is not interrupted. */}
          <NotificationBell />
          {!narrow && (
            <>
              <HelpButton />
              <FeedbackButton userId={user.id} />
              <LanguageSwitch />
              <LogoffButton />
            </>
          )}
        </div>
      </header>

      {/* Scrolls when a role's entries are taller than the window: each stays reachable, and Tab scrolls it into view. */}
      <nav id={navId} className="lite-shell__nav" aria-label={t('nav.label')}>
        <div className="lite-shell__nav-top">
          <div className="lite-shell__user">
            <span className="lite-shell__user-name">{user.displayName}</span>
            <SessionTimer testId={null} />
          </div>
          {narrow && (
            <>
              <RoleSwitch roles={roles} active={activeRole} />
              <div className="lite-shell__row">
                <HelpButton />
                <FeedbackButton userId={user.id} />
              </div>
              <div className="lite-shell__row lite-shell__row--spread">
                <LanguageSwitch />
                <LogoffButton />
              </div>
            </>
          )}
        </div>
        {[...navItemsFor(activeRole, t), ...(activeRole === 'participant' ? participantNav : [])].map(
          (item) => (
            <NavEntry key={item.to} item={item} />
          ),
        )}
        {activeRole && activeRole !== 'participant' && (
          <Suspense fallback={null}>
            <WorkPlaceNav role={activeRole} />
          </Suspense>
        )}
      </nav>

      <main id="main" className="lite-shell__main">
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

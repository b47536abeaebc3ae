import { Anchor, AppShell, Burger, Group, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
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

/** Signed-in pages: header with the user, role, session time, language and log off; role navigation. */
export function AppLayout() {
  const { t } = useTranslation();
  const { data: user } = useSuspenseQuery(currentUserQuery());
  const [opened, { toggle, close }] = useDisclosure(false);
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

  const userBlock = (
    <Stack gap={0} align="flex-end">
      <Text size="sm" fw={600} data-testid="user-name">
        {user.displayName}
      </Text>
      <SessionTimer />
    </Stack>
  );

  return (
    <AppShell
      header={{ height: { base: 60, md: 64 } }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <SkipLink />
      <NavigationProgress />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('app.menu')} />
            <Anchor
              component={Link}
              to={activeRole ? ROLE_HOME_PATH[activeRole] : '/'}
              underline="never"
              fw={700}
              fz="xl"
              c="attesta.8"
            >
              {t('app.name')}
            </Anchor>
            {!narrow && <RoleSwitch roles={roles} active={activeRole} />}
          </Group>
          <Group gap="md" wrap="nowrap">
            <Group visibleFrom="md">{userBlock}</Group>
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
          </Group>
        </Group>
      </AppShell.Header>

      {/* Scrolls when a role's entries are taller than the window: each stays reachable, and Tab scrolls it into view. */}
      <AppShell.Navbar p="sm" aria-label={t('nav.label')} style={{ overflowY: 'auto' }}>
        <Stack gap="md" hiddenFrom="md" mb="md">
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {user.displayName}
            </Text>
            <SessionTimer testId={null} />
          </Stack>
          {narrow && (
            <>
              <RoleSwitch roles={roles} active={activeRole} />
              <Group gap="sm">
                <HelpButton />
                <FeedbackButton userId={user.id} />
              </Group>
              <Group justify="space-between">
                <LanguageSwitch />
                <LogoffButton />
              </Group>
            </>
          )}
        </Stack>
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
      </AppShell.Navbar>

      <AppShell.Main id="main">
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

import { Stack, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import type { HomeRole } from '../../../lib/roles';
import { currentUserQuery } from '../../../lib/session';
import { AccountSummary } from './account-summary';
import { RoleDashboard } from './role-dashboard';

/**
 * Home of a staff role or a guest: the role's dashboard (today's diagnostics, what needs attention,
 * queues, shortcuts — `role-dashboard.tsx`), then who is signed in, with which roles, until when.
 */
export function RoleHome({
  role,
  children,
}: {
  role: Exclude<HomeRole, 'participant'>;
  /** Links into the role's work places, composed by app/ (features do not import each other). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { data: user } = useSuspenseQuery(currentUserQuery());
  return (
    <Stack gap="lg">
      <PageTitle data-testid={`role-home-${role}`}>{t(`home.title.${role}`)}</PageTitle>
      <Text fz="lg" data-testid="greeting">
        {t('home.greeting', { name: user.displayName })}
      </Text>
      {children}
      <RoleDashboard role={role} />
      <AccountSummary user={user} />
    </Stack>
  );
}

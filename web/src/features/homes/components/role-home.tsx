import { Stack, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import type { HomeRole } from '../../../lib/roles';
import { currentUserQuery } from '../../../lib/session';
import { AccountSummary } from './account-summary';

/**
 * Home of a staff role or a guest. It shows only what exists today — who is signed in, with which
 * roles, until when; the work places of each role arrive with their own issues.
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
      <AccountSummary user={user} />
      <Text c="dimmed" size="sm">
        {t('home.sectionsLater')}
      </Text>
    </Stack>
  );
}

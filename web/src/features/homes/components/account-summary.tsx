import type { CurrentUser } from '@attesta/contract';
import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDisplayDateTime } from '../../../lib/format';
import { homeRolesOf } from '../../../lib/roles';
import { sessionTimeQuery } from '../../../lib/session';

/** What the client knows for sure about the signed-in account; nothing here is a placeholder. */
export function AccountSummary({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const sessionTime = useQuery(sessionTimeQuery());
  const rows: [string, ReactNode][] = [
    [t('home.login'), user.login],
    ...(user.email ? [[t('home.email'), user.email] as [string, string]] : []),
    ...(user.schoolName ? [[t('home.school'), user.schoolName] as [string, string]] : []),
    [
      t('home.roles'),
      <Group gap={6} key="roles">
        {homeRolesOf(user.roles).map((role) => (
          <Badge key={role} variant="light" tt="none">
            {t(`roles.${role}`)}
          </Badge>
        ))}
      </Group>,
    ],
    [
      t('home.sessionUntil'),
      sessionTime.data ? formatDisplayDateTime(sessionTime.data) : t('home.sessionUnknown'),
    ],
  ];
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Text fw={600} component="h2" fz="lg" m={0}>
          {t('home.account')}
        </Text>
        <Table variant="vertical" layout="fixed" data-testid="account-summary">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                {/* On a phone the label takes 40 %: the table fits 320 px without sideways scroll. */}
                <Table.Th w={{ base: '40%', sm: 200 }}>{label}</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

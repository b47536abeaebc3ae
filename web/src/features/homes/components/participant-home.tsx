import { Alert, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { formatDisplayDate, parsePlainDate } from '../../../lib/format';
import { currentUserQuery } from '../../../lib/session';
import { currentParticipantTestQuery, type ParticipantTestSummary } from '../api/current-participant-test';

function AssignedTest({ test }: { test: ParticipantTestSummary }) {
  const { t } = useTranslation();
  const plainDate = test.date ? parsePlainDate(test.date.slice(0, 10)) : null;
  const rows: [string, string | undefined][] = [
    [t('participant.subjectTest'), test.subjectTestName],
    [t('participant.diagnostic'), test.diagnosticName],
    [t('participant.date'), plainDate ? formatDisplayDate(plainDate) : test.date],
    [t('participant.status'), test.status],
  ];
  return (
    <Paper withBorder radius="md" p="lg" data-testid="participant-test">
      <Text fw={600} component="h2" fz="lg" m={0} mb="sm">
        {t('participant.assigned')}
      </Text>
      <Table variant="vertical" layout="fixed">
        <Table.Tbody>
          {rows
            .filter((row): row is [string, string] => Boolean(row[1]))
            .map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={200}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** Home of a participant signed in with an activation code. */
export function ParticipantHome() {
  const { t } = useTranslation();
  const { data: user } = useSuspenseQuery(currentUserQuery());
  const test = useQuery(currentParticipantTestQuery());
  const notYet =
    test.error instanceof ApiError && (test.error.code === 'not_implemented' || test.error.status === 404);

  return (
    <Stack gap="lg">
      <PageTitle data-testid="role-home-participant">{t('home.title.participant')}</PageTitle>
      <Alert color="teal" variant="light" title={t('participant.codeAccepted')} data-testid="code-accepted">
        {t('participant.codeAcceptedText')}
      </Alert>
      <Text fz="lg" data-testid="greeting">
        {t('home.greeting', { name: user.displayName })}
      </Text>
      {test.isPending && (
        <Group role="status" gap="sm">
          <Loader size="sm" />
          <Text>{t('participant.checking')}</Text>
        </Group>
      )}
      {test.data && <AssignedTest test={test.data} />}
      {test.isError &&
        (notYet ? (
          <Alert color="blue" variant="light" data-testid="test-coming-soon">
            {t('participant.comingSoon')}
          </Alert>
        ) : (
          <Alert color="orange" variant="light" data-testid="test-failed">
            {t('participant.failed', { message: describeApiError(test.error, t) })}
          </Alert>
        ))}
    </Stack>
  );
}

/**
 * The guest home's open tests (docs/open-tests.md): each open test with its subject, grades,
 * duration and number of tasks, a start (after a word about the time) or resume button, and the
 * guest's attempts with their scores and a link to each result.
 */
import type { OpenTest, OpenTestAttempt } from '@attesta/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useBundleT, type LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { formatDisplayDateTime, formatNumber, type Language } from '../../../lib/format';
import { describeApiError } from '../../../lib/form-errors';
import { currentUserQuery } from '../../../lib/session';
import { listOpenTests, openTestsKeys, startAttempt } from '../api/open-tests-api';
import { openTestsBundle } from '../locales';

const when = (iso: string | null, t: LooseT) =>
  iso ? formatDisplayDateTime(new Date(iso)) : t('openTests.none');

function grades(parallels: number[], t: LooseT): string | null {
  if (!parallels.length) return null;
  const list = parallels.map((p) => (p === 0 ? t('openTests.preschool') : String(p))).join(', ');
  return parallels.length > 1 ? t('openTests.parallelsMany', { list }) : t('openTests.parallels', { list });
}

function Attempts({ attempts, t, lang }: { attempts: OpenTestAttempt[]; t: LooseT; lang: Language }) {
  const num = (n: number) => formatNumber(n, lang);
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped withTableBorder data-testid="open-test-attempts">
        <Table.Caption>{t('openTests.attempts')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('openTests.startedAt')}</Table.Th>
            <Table.Th>{t('openTests.finishedAt')}</Table.Th>
            <Table.Th>{t('openTests.score')}</Table.Th>
            <Table.Th>{t('openTests.percent')}</Table.Th>
            <Table.Th>{t('openTests.mark')}</Table.Th>
            <Table.Th>{t('openTests.result')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attempts.map((a, i) => (
            <Table.Tr key={a.id} data-testid={`open-attempt-${a.id}`}>
              <Table.Td>{when(a.startedAt, t)}</Table.Td>
              <Table.Td>
                {a.state === 'finished' ? when(a.finishedAt, t) : t('openTests.inProgress')}
              </Table.Td>
              <Table.Td>
                {a.primaryScore !== null && a.maxScore !== null
                  ? t('openTests.scoreValue', { score: num(a.primaryScore), max: num(a.maxScore) })
                  : t('openTests.none')}
              </Table.Td>
              <Table.Td>{a.percent !== null ? `${num(a.percent)}\u00a0%` : t('openTests.none')}</Table.Td>
              <Table.Td>{a.mark ?? t('openTests.none')}</Table.Td>
              <Table.Td>
                {a.state === 'finished' ? (
                  <Anchor
                    component={Link}
                    to={`/guest/attempts/${a.id}`}
                    aria-label={`${t('openTests.result')}: ${t('openTests.attempt', { n: attempts.length - i })}`}
                  >
                    {a.primaryScore === null ? t('openTests.counting') : t('openTests.result')}
                  </Anchor>
                ) : (
                  t('openTests.none')
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function TestCard({
  test,
  t,
  lang,
  onStart,
  onResume,
}: {
  test: OpenTest;
  t: LooseT;
  lang: Language;
  onStart: () => void;
  onResume: () => Promise<void>;
}) {
  const running = test.attempts.some((a) => a.state === 'in_progress');
  const facts = [
    t('openTests.subject', { name: test.subjectName }),
    grades(test.parallels, t),
    t('openTests.duration', { count: test.durationMinutes }),
    test.taskCount !== null ? t('openTests.tasks', { count: test.taskCount }) : null,
  ].filter((x): x is string => Boolean(x));
  return (
    <Paper withBorder radius="md" p="lg" data-testid={`open-test-${test.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Title order={3} fz="lg">
            {test.name}
          </Title>
          {!test.isOpen && <Badge color="gray">{t('openTests.closed')}</Badge>}
        </Group>
        <Text c="dimmed" size="sm">
          {facts.join(' · ')}
        </Text>
        {test.description && <Text>{test.description}</Text>}
        <Group>
          {running ? (
            <LoadingButton onClick={onResume} data-testid={`open-test-resume-${test.id}`}>
              {t('openTests.resume')}
            </LoadingButton>
          ) : (
            test.isOpen && (
              <Button onClick={onStart} data-testid={`open-test-start-${test.id}`}>
                {test.attempts.length ? t('openTests.again') : t('openTests.start')}
              </Button>
            )
          )}
        </Group>
        {test.attempts.length > 0 && <Attempts attempts={test.attempts} t={t} lang={lang} />}
      </Stack>
    </Paper>
  );
}

export function OpenTestsHome() {
  const { t, i18n } = useBundleT(openTestsBundle);
  const lang = (i18n.language === 'en' ? 'en' : 'ru') as Language;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tests = useQuery({ queryKey: openTestsKeys.list, queryFn: ({ signal }) => listOpenTests(signal) });
  const [asked, setAsked] = useState<OpenTest | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  /** Starts or resumes, then opens the runner with what the session now sits. */
  const go = async (test: OpenTest) => {
    setProblem(null);
    try {
      await startAttempt(test.id);
      // The session sits the attempt now: its roles changed, and whatever the runner kept of an
      // earlier sitting in this tab is not this attempt's.
      queryClient.removeQueries({ queryKey: ['exam'] });
      await queryClient.fetchQuery({ ...currentUserQuery(), staleTime: 0 });
      void queryClient.invalidateQueries({ queryKey: openTestsKeys.list });
      navigate('/participant/work');
    } catch (error) {
      setProblem(t('openTests.startFailed', { message: describeApiError(error, t) }));
      void tests.refetch();
    } finally {
      setAsked(null);
    }
  };

  return (
    <Stack gap="md" data-testid="open-tests">
      <Title order={2}>{t('openTests.title')}</Title>
      <Text>{t('openTests.intro')}</Text>
      {problem && (
        <Alert color="red" variant="light" role="alert" data-testid="open-test-start-failed">
          {problem}
        </Alert>
      )}
      {tests.isPending && <Loader size="sm" aria-label={t('openTests.title')} />}
      {tests.isError && (
        <Alert color="orange" variant="light" data-testid="open-tests-failed">
          {t('openTests.loadFailed', { message: describeApiError(tests.error, t) })}
        </Alert>
      )}
      {tests.data && tests.data.items.length === 0 && (
        <Text c="dimmed" data-testid="open-tests-empty">
          {t('openTests.empty')}
        </Text>
      )}
      {tests.data?.items.map((test) => (
        <TestCard
          key={test.id}
          test={test}
          t={t}
          lang={lang}
          onStart={() => setAsked(test)}
          onResume={() => go(test)}
        />
      ))}
      <Modal
        opened={asked !== null}
        onClose={() => setAsked(null)}
        title={asked ? t('openTests.confirmTitle', { name: asked.name }) : ''}
      >
        {asked && (
          <Stack>
            <Text>
              {t('openTests.confirmText', {
                duration: t('openTests.duration', { count: asked.durationMinutes }),
              })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsked(null)}>
                {t('openTests.cancel')}
              </Button>
              <LoadingButton onClick={() => go(asked)} data-testid="open-test-confirm">
                {t('openTests.confirm')}
              </LoadingButton>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

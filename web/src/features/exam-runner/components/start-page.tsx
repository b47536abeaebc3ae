/**
 * /participant: the participant's landing page and the way into the work — card, description,
 * procedure, device check, questionnaire, start window, «Начать работу» / «Продолжить работу», in
 * the order they are read: the procedure comes before the start, and a device that failed its check
 * cannot start (the reason is said, «Проверить снова» runs it again).
 */
import type { CurrentParticipantTest } from '@attesta/contract';
import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '../../../components/lite/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { RichHtml } from '../../../components/answers/rich-html';
import { Disclosure, DisclosureGroup } from '../../../components/lite/disclosure';
import { Table } from '../../../components/lite/table';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { formatDisplayDate, formatDuration, parsePlainDate } from '../../../lib/format';
import { currentUserQuery } from '../../../lib/session';
import { createExamApi, type ExamApi } from '../api/exam-api';
import { formatClock } from '../lib/countdown';
import { saveRunnerSnapshot } from '../../../lib/runner-snapshot';
import { ParticipantCardForm } from './participant-card-form';
import { QuizForm } from './quiz-form';
import { TechCheck, useTechBlocker, useTechCheck, type TechCheckQuery } from './tech-check';
import { OpenElsewhere } from './open-elsewhere';

export const currentTestKey = ['exam', 'current-test'] as const;
// Where a signed-in participant lands is decided before the page loads (the login page's loader).
export { participantLanding } from '../landing';

/**
 * The time the participant has: the test's limit and the extra time of their accommodations. A
 * started work says it itself (staff may have changed it); before the start it is the server's
 * rule, limit × percent / 100 rounded to the second (server/src/lib/work-clock.ts).
 */
export function sittingTime(test: CurrentParticipantTest): { baseSeconds: number; extraSeconds: number } {
  const work = test.examWork;
  if (work) return { baseSeconds: work.timeLimitSeconds, extraSeconds: Math.max(0, work.extraSeconds) };
  const baseSeconds = test.subjectTest.durationMinutes * 60;
  const percent = test.participant.accommodations?.extraTimePercent ?? 0;
  return { baseSeconds, extraSeconds: percent > 0 ? Math.round((baseSeconds * percent) / 100) : 0 };
}

function useDurationText(test: CurrentParticipantTest): string {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'ru';
  const { baseSeconds, extraSeconds } = sittingTime(test);
  if (extraSeconds <= 0) return t('start.minutes', { count: Math.round(baseSeconds / 60) });
  return t('start.durationWithExtra', {
    total: formatDuration(baseSeconds + extraSeconds, lang),
    base: formatDuration(baseSeconds, lang),
    extra: formatDuration(extraSeconds, lang),
  });
}

function TestCard({ test }: { test: CurrentParticipantTest }) {
  const { t } = useTranslation();
  const date = parsePlainDate(test.testDate.slice(0, 10));
  const duration = useDurationText(test);
  const rows: [string, string | null, string?][] = [
    [t('participant.subjectTest'), test.subjectTest.name],
    [t('participant.diagnostic'), test.diagnostic.name],
    [t('participant.date'), date ? formatDisplayDate(date) : test.testDate],
    [t('start.duration'), duration, 'test-duration'],
    [t('start.tasks'), test.subjectTest.taskCount !== null ? String(test.subjectTest.taskCount) : null],
    [t('start.participant'), test.participant.displayName],
    [t('start.class'), test.participant.className],
    [t('start.school'), test.participant.schoolName],
  ];
  return (
    <Paper withBorder radius="md" p="lg" data-testid="participant-test">
      <Title order={2} fz="lg" mb="sm">
        {t('participant.assigned')}
      </Title>
      <Table variant="vertical" fixed>
        <tbody>
          {rows
            .filter((row): row is [string, string, string?] => Boolean(row[1]))
            .map(([label, value, testId]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td data-testid={testId}>{value}</td>
              </tr>
            ))}
        </tbody>
      </Table>
    </Paper>
  );
}

function SubjectTexts({ api, subjectTestId }: { api: ExamApi; subjectTestId: number }) {
  const { t } = useTranslation();
  const description = useQuery({
    queryKey: ['exam', 'description', subjectTestId],
    queryFn: ({ signal }) => api.description(subjectTestId, signal),
  });
  const procedure = useQuery({
    queryKey: ['exam', 'procedure', subjectTestId],
    queryFn: ({ signal }) => api.procedure(subjectTestId, signal),
  });
  const items = [
    { key: 'description', label: t('start.description'), html: description.data?.html },
    { key: 'procedure', label: t('start.procedure'), html: procedure.data?.html },
  ].filter((item) => item.html);
  if (!items.length) return null;
  return (
    <DisclosureGroup data-testid="subject-texts">
      {items.map((item) => (
        <Disclosure key={item.key} title={item.label} headingLevel={2} defaultOpen={item.key === 'procedure'}>
          <RichHtml html={item.html} />
        </Disclosure>
      ))}
    </DisclosureGroup>
  );
}

/** Seconds until the start window opens, counted down locally from the server's answer. */
function useStartWindow(api: ExamApi, enabled: boolean) {
  const query = useQuery({
    queryKey: ['exam', 'time-before'],
    queryFn: async ({ signal }) => ({ ...(await api.timeBefore(signal)), receivedAt: Date.now() }),
    enabled,
    staleTime: 0,
  });
  const [now, setNow] = useState(() => Date.now());
  const waiting = Boolean(query.data && query.data.seconds > 0);
  useEffect(() => {
    if (!waiting) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [waiting]);
  const seconds = query.data
    ? Math.max(0, query.data.seconds - Math.floor(Math.max(0, now - query.data.receivedAt) / 1000))
    : 0;
  return {
    seconds,
    windowClosed: query.data ? Date.parse(query.data.endsAt) <= Date.parse(query.data.serverTime) : false,
  };
}

function StartBlock({
  api,
  test,
  check,
}: {
  api: ExamApi;
  test: CurrentParticipantTest;
  check: TechCheckQuery;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'ru';
  const { baseSeconds, extraSeconds } = sittingTime(test);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const work = test.examWork;
  const running =
    work !== null && (work.status === 'in_progress' || work.status === 'paused' || work.status === 'new');
  const finished = work !== null && !running;
  const start = useStartWindow(api, !work);
  const [problem, setProblem] = useState<string | null>(null);
  const techBlocker = useTechBlocker(check);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: currentTestKey });

  if (finished) {
    // What the state means and what to do next: see the published result, or come back for it.
    const published = test.diagnostic.resultsPublished;
    return (
      <Alert
        color="teal"
        variant="light"
        title={t(published ? 'start.publishedTitle' : 'start.finishedTitle')}
        data-testid="work-already-finished"
        data-state={published ? 'published' : 'finished'}
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t(published ? 'start.publishedText' : 'start.finishedText')}</Text>
          {published && (
            <Button component={Link} to="/participant/result" data-testid="open-result">
              {t('start.openResult')}
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }
  if (running && test.openElsewhere) return <OpenElsewhere onRecheck={refresh} />;
  if (running) {
    return (
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm" align="flex-start">
          <Text>{t('start.continueText')}</Text>
          <Button size="lg" onClick={() => navigate('/participant/work')} data-testid="continue-work">
            {t('start.continue')}
          </Button>
        </Stack>
      </Paper>
    );
  }
  const needCard = !test.participant.cardComplete;
  const needQuiz = test.subjectTest.hasQuiz && !test.quizDone;
  const blockers = [
    needCard ? t('start.needCard') : null,
    needQuiz ? t('start.needQuiz') : null,
    start.seconds > 0 ? t('start.notYet', { time: formatClock(start.seconds) }) : null,
    start.windowClosed ? t('start.windowClosed') : null,
    // From the first publication of the results no work of the diagnostic starts (docs/design.md §3).
    test.diagnostic.closedByPublication ? t('start.closedByPublication') : null,
    techBlocker,
  ].filter((x): x is string => Boolean(x));
  const techFailed = !check.isPending && techBlocker !== null;

  const begin = async () => {
    setProblem(null);
    try {
      const created = await api.newWork();
      void saveRunnerSnapshot({ ...test, examWork: created });
      queryClient.setQueryData(currentTestKey, { ...test, examWork: created });
      navigate('/participant/work');
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) refresh();
      // Started on another device meanwhile: the refresh shows why, no runner opens.
      setProblem(describeApiError(error, t));
    }
  };

  return (
    <>
      {needCard && <ParticipantCardForm api={api} onSaved={refresh} />}
      {needQuiz && <QuizForm api={api} onSaved={refresh} />}
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm" align="flex-start">
          {start.seconds > 0 && (
            <Text fz="lg" data-testid="time-before">
              {t('start.untilStart')} <strong>{formatClock(start.seconds)}</strong>
            </Text>
          )}
          {blockers.length > 0 && (
            <ul className="start-blockers" data-testid="start-blockers">
              {blockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          )}
          {techFailed && (
            <Button
              variant="default"
              onClick={() => void check.refetch()}
              loading={check.isFetching}
              data-testid="tech-retry"
            >
              {t('start.tech.again')}
            </Button>
          )}
          <Text size="sm" c="dimmed" data-testid="start-hint">
            {extraSeconds > 0
              ? t('start.startHintExtra', { total: formatDuration(baseSeconds + extraSeconds, lang) })
              : t('start.startHint', { count: test.subjectTest.durationMinutes })}
          </Text>
          <LoadingButton size="lg" onClick={begin} disabled={blockers.length > 0} data-testid="start-work">
            {t('start.start')}
          </LoadingButton>
          {problem && (
            <Alert color="red" variant="light" role="alert" data-testid="start-failed">
              {problem}
            </Alert>
          )}
        </Stack>
      </Paper>
    </>
  );
}

/** Home of a participant signed in with an activation code. */
export function StartPage({ api: injected }: { api?: ExamApi }) {
  const { t } = useTranslation();
  const api = useMemo(() => injected ?? createExamApi(), [injected]);
  const { data: user } = useSuspenseQuery(currentUserQuery());
  const test = useQuery({
    queryKey: currentTestKey,
    queryFn: ({ signal }) => api.currentParticipantTest(signal),
    staleTime: 0,
  });
  const checking = Boolean(test.data && !test.data.examWork);
  const check = useTechCheck(api, checking);
  const notYet =
    test.error instanceof ApiError && (test.error.code === 'not_implemented' || test.error.status === 404);

  return (
    <Stack gap="lg" maw={960}>
      <PageTitle data-testid="role-home-participant">{t('home.title.participant')}</PageTitle>
      {!test.data?.examWork && (
        <Alert color="teal" variant="light" title={t('participant.codeAccepted')} data-testid="code-accepted">
          {t('participant.codeAcceptedText')}
        </Alert>
      )}
      <Text fz="lg" data-testid="greeting">
        {t('home.greeting', { name: user.displayName })}
      </Text>
      {test.isPending && (
        <Group role="status" gap="sm">
          <Loader size="sm" />
          <Text>{t('participant.checking')}</Text>
        </Group>
      )}
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
      {test.data && (
        <>
          <TestCard test={test.data} />
          {/* The procedure is read before the start, and the device is checked before it too. */}
          <SubjectTexts api={api} subjectTestId={test.data.subjectTest.id} />
          {!test.data.examWork && <TechCheck check={check} />}
          <StartBlock api={api} test={test.data} check={check} />
        </>
      )}
    </Stack>
  );
}

/**
 * The warning that a subject test's expert-graded tasks (extended text, file answers) have too few
 * experts, in words and naming the test (docs/design.md §3): blind double marking needs two experts
 * in every grade, and answers nobody was assigned as wait. Presentational: each page reads the
 * coverage through its own call (the diagnostic pages, the check before publication).
 */
import type { ExpertCoverage } from '@attesta/contract';
import { Alert, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useBundleT, type Bundle, type LooseT } from './data-table/use-bundle-t';

/** Whether the coverage needs a word: fewer than two experts, or answers waiting for one. */
export const lacksExperts = (c: ExpertCoverage): boolean => c.experts < 2 || c.waitingAnswers > 0;

const gradeLabel = (grade: number, t: LooseT) =>
  grade === 0 ? t('expertCoverage.preschool') : t('expertCoverage.grade', { grade });

/** One subject test's shortage, in sentences. */
export function coverageSentences(c: ExpertCoverage, t: LooseT): string[] {
  const tasks = t(c.expertTaskPositions.length === 1 ? 'expertCoverage.task' : 'expertCoverage.tasks', {
    positions: c.expertTaskPositions.join(', '),
  });
  const facts = { tasks, test: c.subjectTestName, subject: c.subjectName };
  const out: string[] = [];
  if (c.experts === 0) out.push(t('expertCoverage.none', facts));
  else if (c.experts === 1) out.push(t('expertCoverage.one', facts));
  const short = c.grades.filter((g) => g.experts < 2);
  if (c.experts < 2 && c.grades.length > 1 && short.length < c.grades.length)
    out.push(
      t('expertCoverage.grades', {
        grades: short.map((g) => `${gradeLabel(g.grade, t)} (${g.experts})`).join(', '),
      }),
    );
  if (c.waitingAnswers > 0)
    out.push(t('expertCoverage.waiting', { count: c.waitingAnswers, test: c.subjectTestName }));
  return out;
}

export function ExpertCoverageAlert({
  items,
  hint,
  actionOf,
}: {
  items: readonly ExpertCoverage[];
  /** Who can act: the admin assigns experts; others ask the admin. */
  hint: 'admin' | 'askAdmin';
  /** A link or button beside each subject test (the admin's «assign experts»). */
  actionOf?: (c: ExpertCoverage) => ReactNode;
}) {
  const { t } = useBundleT(expertCoverageBundle);
  const shown = items.filter(lacksExperts);
  if (!shown.length) return null;
  return (
    <Alert color="orange" title={t('expertCoverage.title')} data-testid="expert-coverage-warning">
      <Stack gap="xs">
        {shown.map((c) => (
          <Stack gap={2} key={c.subjectTestId} data-testid={`expert-coverage-${c.subjectTestId}`}>
            {coverageSentences(c, t).map((line) => (
              <Text size="sm" key={line}>
                {line}
              </Text>
            ))}
            {actionOf?.(c)}
          </Stack>
        ))}
        <Text size="sm" c="dimmed">
          {t(`expertCoverage.hint.${hint}`)}
        </Text>
      </Stack>
    </Alert>
  );
}

const ru = {
  expertCoverage: {
    title: 'Ответы некому проверить',
    task: 'Задание {{positions}}',
    tasks: 'Задания {{positions}}',
    none: '{{tasks}} теста «{{test}}» ({{subject}}) проверяют эксперты, но ни один эксперт не может их проверить.',
    one: '{{tasks}} теста «{{test}}» ({{subject}}) может проверить только один эксперт, а двойной проверке нужны два: ответы будут ждать второго эксперта.',
    grades: 'Экспертов меньше двух в классах: {{grades}}.',
    grade: '{{grade}} класс',
    preschool: 'дошкольная группа',
    waiting: 'Ответов теста «{{test}}» ждут эксперта: {{count}}.',
    hint: {
      admin:
        'Назначьте экспертов на предмет или на тест: на странице теста (вкладка «Эксперты») или пользователя.',
      askAdmin: 'Экспертов назначает администратор: сообщите ему, пока работы не начали ждать проверки.',
    },
  },
};

const en = {
  expertCoverage: {
    title: 'No one to grade the answers',
    task: 'Task {{positions}}',
    tasks: 'Tasks {{positions}}',
    none: '{{tasks}} of the test «{{test}}» ({{subject}}) are graded by experts, but no expert can grade them.',
    one: '{{tasks}} of the test «{{test}}» ({{subject}}) can be graded by one expert only, and double marking needs two: the answers will wait for a second expert.',
    grades: 'Fewer than two experts in grades: {{grades}}.',
    grade: 'grade {{grade}}',
    preschool: 'preschool',
    waiting: 'Answers of the test «{{test}}» waiting for an expert: {{count}}.',
    hint: {
      admin:
        'Assign experts to the subject or the test: on the test’s page (the «Experts» tab) or the user’s.',
      askAdmin:
        'Experts are assigned by an administrator: tell them before works start waiting to be graded.',
    },
  },
};

export const expertCoverageBundle: Bundle = { ru, en };

/**
 * What stops a subject test from being published, in words: each problem by variant, position and
 * task, with a link to the task. The same list explains a refused publication (409 content_invalid).
 * Beside it, a warning that does not stop it: too few experts for its expert-graded tasks.
 */
import type { AuthoringVariant, ContentProblem, ExpertCoverage, FieldError } from '@attesta/contract';
import { Alert, Anchor, Button, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { contentKeys } from '../api/shared';
import { getValidation } from '../api/subject-tests';
import { variantsQuery } from '../api/variants';
import { useContentT, type ContentKey, type ContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { LoadError } from './load-error';
import { ExpertCoverageAlert, lacksExperts } from '../../../components/expert-coverage';

export type Problem = Pick<ContentProblem, 'code' | 'variantId' | 'taskId' | 'position'>;

const PROBLEM_CODES = new Set([
  'no_variants',
  'variant_empty',
  'unknown_answer_type',
  'invalid_definition',
  'missing_key',
  'empty_options',
  'key_outside_options',
  'unscorable',
  'bad_max_score',
  'unequal_max_score',
  'mark_scale_missing',
  'mark_scale_not_from_zero',
  'mark_scale_above_max',
]);

const numberParam = (v: string | number | undefined) =>
  v === undefined || v === '' || Number.isNaN(Number(v)) ? undefined : Number(v);

/** The problems of a 409 `content_invalid` answer: each entry of `errors` with its params. */
export function problemsOfError(errors: readonly FieldError[]): Problem[] {
  return errors.map((e) => ({
    code: e.code ?? 'other',
    variantId: numberParam(e.params?.variantId),
    taskId: numberParam(e.params?.taskId),
    position: numberParam(e.params?.position),
  }));
}

export function problemText(code: string, t: ContentT): string {
  return PROBLEM_CODES.has(code)
    ? t(`validation.problems.${code}` as ContentKey)
    : t('validation.problems.other');
}

/** Where a problem is: the test, a variant, or a task of a variant (variants named by number). */
function problemWhere(p: Problem, variants: readonly AuthoringVariant[] | undefined, t: ContentT) {
  if (p.variantId === undefined) return t('validation.whereTest');
  const variant = variants?.find((v) => v.id === p.variantId)?.number ?? `#${p.variantId}`;
  return p.position === undefined
    ? t('validation.whereVariant', { variant })
    : t('validation.whereTask', { variant, position: p.position });
}

export function ProblemList({
  problems,
  variants,
}: {
  problems: readonly Problem[];
  variants: readonly AuthoringVariant[] | undefined;
}) {
  const t = useContentT();
  return (
    <List spacing="xs" data-testid="problem-list">
      {problems.map((p, i) => (
        <List.Item key={i} data-testid="problem">
          <Text span fw={600}>
            {problemWhere(p, variants, t)}:
          </Text>{' '}
          {problemText(p.code, t)}
          {p.taskId !== undefined && (
            <>
              {' '}
              <Anchor component={Link} to={`${CONTENT_BASE}/tasks/${p.taskId}`} size="sm">
                {t('validation.openTask', { id: p.taskId })}
              </Anchor>
            </>
          )}
        </List.Item>
      ))}
    </List>
  );
}

/**
 * Too few experts for the test's expert-graded tasks: a warning beside the check (it does not stop
 * publication), naming the test, with the way to the «Эксперты» tab.
 */
export function ExpertsWarning({
  subjectTestId,
  coverage,
}: {
  subjectTestId: number;
  coverage: ExpertCoverage | null;
}) {
  const t = useContentT();
  if (!coverage || !lacksExperts(coverage)) return null;
  return (
    <ExpertCoverageAlert
      items={[coverage]}
      hint="admin"
      actionOf={() => (
        <Group gap="xs">
          <Text size="sm">{t('validation.expertsWarning')}</Text>
          <Anchor
            component={Link}
            to={`${CONTENT_BASE}/tests/${subjectTestId}?tab=experts`}
            size="sm"
            data-testid="validation-assign-experts"
          >
            {t('validation.assignExperts')}
          </Anchor>
        </Group>
      )}
    />
  );
}

export function ValidationPanel({ subjectTestId }: { subjectTestId: number }) {
  const t = useContentT();
  const validation = useQuery({
    queryKey: contentKeys.validation(subjectTestId),
    queryFn: ({ signal }) => getValidation(subjectTestId, signal),
  });
  const variants = useQuery(variantsQuery(subjectTestId));
  const data = validation.data;
  return (
    <Stack gap="sm" data-testid="validation-panel">
      <Group justify="space-between">
        <Title order={2}>{t('validation.title')}</Title>
        <Button
          variant="default"
          size="xs"
          onClick={() => void validation.refetch()}
          loading={validation.isFetching}
          data-testid="validation-recheck"
        >
          {t('validation.recheck')}
        </Button>
      </Group>
      {validation.isPending && <Loader size="sm" />}
      {data && <ExpertsWarning subjectTestId={subjectTestId} coverage={data.expertCoverage ?? null} />}
      {validation.error && <LoadError error={validation.error} onRetry={() => void validation.refetch()} />}
      {data &&
        (data.valid ? (
          <Alert color="green" role="status" data-testid="validation-ok">
            {data.maxScore === null
              ? t('validation.validNoMax')
              : t('validation.valid', { max: data.maxScore })}
          </Alert>
        ) : (
          <Alert color="orange" data-testid="validation-problems">
            <Stack gap="xs">
              <Text size="sm">{t('validation.invalid', { count: data.problems.length })}</Text>
              <ProblemList problems={data.problems} variants={variants.data} />
            </Stack>
          </Alert>
        ))}
    </Stack>
  );
}

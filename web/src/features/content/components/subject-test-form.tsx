/**
 * The form of a subject test (new draft or existing): subject and exam, name, grades, duration,
 * group, specification, open to guests, description, procedure and instruction html with a live preview, the mark
 * scale and level bands. Checked with the contract's schema before sending.
 */
import { subjectTestBodySchema, type AuthoringSubjectTest, type OpenTestConflict } from '@attesta/contract';
import {
  ActionIcon,
  Alert,
  Button,
  Fieldset,
  Group,
  List,
  MultiSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { contentKeys } from '../api/shared';
import { saveSubjectTest } from '../api/subject-tests';
import { subjectExamsQuery } from '../api/subjects';
import { orNull, useEditForm } from '../../../lib/use-edit-form';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { PlainForm } from '../../../components/ui/form-modal';
import { HtmlField } from './html-field';
import { SpecificationSelect, SubjectExamSelect, SubjectSelect, TestGroupSelect } from './pickers';

let rowSeq = 0;
const rowKey = () => `row-${++rowSeq}`;

interface ScaleRow {
  key: string;
  mark: string;
  minScore: number | string;
  level: string;
}
interface BandRow {
  key: string;
  level: string;
  minPercent: number | string;
}

const num = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? undefined : Number(v));

function initialValues(test: AuthoringSubjectTest | null, subjectId: number | null) {
  return {
    subjectId: test?.subjectId ?? subjectId,
    subjectExamId: test?.subjectExamId ?? (null as number | null),
    name: test?.name ?? '',
    parallels: (test?.parallels ?? []).map(String),
    durationMinutes: (test?.durationMinutes ?? 45) as number | string,
    testGroupId: test?.testGroupId ?? (null as number | null),
    specificationId: test?.specificationId ?? (null as number | null),
    isOpen: test?.isOpen ?? false,
    allowCalculator: test?.allowCalculator ?? false,
    description: test?.description ?? '',
    procedureHtml: test?.procedureHtml ?? '',
    instructionHtml: test?.instructionHtml ?? '',
    markScale: (test?.markScale ?? []).map((s): ScaleRow => ({
      key: rowKey(),
      mark: s.mark,
      minScore: s.minScore,
      level: s.level ?? '',
    })),
    levelBands: (test?.levelBands ?? []).map((b): BandRow => ({
      key: rowKey(),
      level: b.level,
      minPercent: b.minPercent,
    })),
  };
}

export function SubjectTestForm({
  test,
  defaultSubjectId = null,
  onSaved,
  onCancel,
}: {
  /** The page's read (with what keeps it from being opened), or null for a new draft. */
  test: (AuthoringSubjectTest & { openConflicts?: OpenTestConflict[] }) | null;
  defaultSubjectId?: number | null;
  onSaved: (saved: AuthoringSubjectTest) => void;
  onCancel?: () => void;
}) {
  const t = useContentT();
  const { t: appT } = useTranslation();
  const labels = useLabels();
  const queryClient = useQueryClient();
  const form = useEditForm(() => initialValues(test, defaultSubjectId));
  const { values, set } = form;
  const exams = useQuery({
    ...subjectExamsQuery(values.subjectId ?? 0),
    enabled: values.subjectId !== null,
  });
  const noExams = values.subjectId !== null && exams.data !== undefined && exams.data.length === 0;

  // Said before anyone tries: an open test must not show items a secure test still uses.
  const openConflicts = test && !test.isOpen ? (test.openConflicts ?? []) : [];
  const setScale = (rows: ScaleRow[]) => set('markScale', rows);
  const setBands = (rows: BandRow[]) => set('levelBands', rows);

  const onSubmit = () =>
    form.submit(
      subjectTestBodySchema.safeParse({
        subjectExamId: values.subjectExamId ?? undefined,
        name: values.name,
        parallels: values.parallels.map(Number),
        durationMinutes: num(values.durationMinutes),
        testGroupId: values.testGroupId,
        specificationId: values.specificationId,
        isOpen: values.isOpen,
        allowCalculator: values.allowCalculator,
        description: orNull(values.description),
        procedureHtml: orNull(values.procedureHtml),
        instructionHtml: orNull(values.instructionHtml),
        markScale: values.markScale.map((s) => ({
          mark: s.mark,
          minScore: num(s.minScore),
          ...(s.level.trim() ? { level: s.level } : {}),
        })),
        levelBands: values.levelBands.map((b) => ({ level: b.level, minPercent: num(b.minPercent) })),
      }),
      async (body) => {
        const saved = await saveSubjectTest(body, test?.id);
        await queryClient.invalidateQueries({ queryKey: contentKeys.subjectTests });
        queryClient.setQueryData(contentKeys.subjectTest(saved.id), saved);
        onSaved(saved);
      },
      { extraErrors: values.subjectId === null ? { subjectId: appT('validation.required') } : {} },
    );

  return (
    <PlainForm attachForm={form.attachForm} onSubmit={onSubmit} testId="test-form">
      <Stack gap="md" maw={1100}>
        {form.formError && (
          <Alert color="red" role="alert" data-testid="test-form-error">
            {form.formError}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SubjectSelect
            label={t('form.subject')}
            withAsterisk
            value={values.subjectId}
            onChange={(id) => {
              set('subjectId', id);
              set('subjectExamId', null);
              set('specificationId', null);
            }}
            disabled={test !== null}
            description={test ? t('form.subjectFixed') : undefined}
            {...form.errorOf('subjectId')}
            data-testid="test-subject"
          />
          <SubjectExamSelect
            label={t('form.exam')}
            withAsterisk
            subjectId={values.subjectId}
            value={values.subjectExamId}
            onChange={(id) => set('subjectExamId', id)}
            placeholder={values.subjectId === null ? t('form.chooseSubjectFirst') : undefined}
            description={noExams ? t('form.noExams') : t('form.examHint')}
            {...form.errorOf('subjectExamId')}
            data-testid="test-exam"
          />
        </SimpleGrid>
        <TextInput label={t('form.name')} withAsterisk {...form.text('name')} data-testid="test-name" />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <MultiSelect
            label={t('form.parallels')}
            data={labels.parallelOptions}
            value={values.parallels}
            onChange={(v) => set('parallels', v)}
            searchable
            {...form.errorOf('parallels')}
            data-testid="test-parallels"
          />
          <NumberInput
            label={t('form.duration')}
            withAsterisk
            min={1}
            max={24 * 60}
            allowDecimal={false}
            value={values.durationMinutes}
            onChange={(v) => set('durationMinutes', v)}
            {...form.errorOf('durationMinutes')}
            data-testid="test-duration"
          />
          <TestGroupSelect
            label={t('form.group')}
            clearable
            value={values.testGroupId}
            onChange={(id) => set('testGroupId', id)}
            {...form.errorOf('testGroupId')}
          />
        </SimpleGrid>
        <SpecificationSelect
          label={t('form.specification')}
          description={t('form.specificationHint')}
          clearable
          subjectId={values.subjectId}
          value={values.specificationId}
          onChange={(id) => set('specificationId', id)}
          {...form.errorOf('specificationId')}
          data-testid="test-specification"
        />
        <Switch
          label={t('form.isOpen')}
          description={t('form.isOpenHint')}
          checked={values.isOpen}
          onChange={(event) => set('isOpen', event.currentTarget.checked)}
          error={form.fieldErrors.isOpen}
          disabled={openConflicts.length > 0 && !values.isOpen}
          data-testid="test-is-open"
        />
        {openConflicts.length > 0 && (
          <Alert color="yellow" variant="light" id="open-blocked" data-testid="open-blocked">
            <Text size="sm">{t('form.openBlocked')}</Text>
            <List size="sm" mt={4}>
              {openConflicts.map((c) => (
                <List.Item key={c.subjectTestId}>
                  {t('form.openBlockedItem', {
                    name: c.name,
                    diagnostics: c.diagnostics.join(', '),
                    count: c.sharedTasks,
                  })}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Switch
          label={t('form.allowCalculator')}
          description={t('form.allowCalculatorHint')}
          checked={values.allowCalculator}
          onChange={(event) => set('allowCalculator', event.currentTarget.checked)}
          data-testid="test-allow-calculator"
        />
        <Textarea label={t('form.description')} rows={3} resize="vertical" {...form.text('description')} />
        <HtmlField
          label={t('form.procedure')}
          value={values.procedureHtml}
          onChange={(v) => set('procedureHtml', v)}
          error={form.fieldErrors.procedureHtml}
          testId="test-procedure"
        />
        <HtmlField
          label={t('form.instruction')}
          value={values.instructionHtml}
          onChange={(v) => set('instructionHtml', v)}
          error={form.fieldErrors.instructionHtml}
          testId="test-instruction"
        />

        <Fieldset legend={t('form.markScale')} data-testid="mark-scale">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('form.markScaleHint')}
            </Text>
            {values.markScale.map((row, i) => (
              <Group key={row.key} align="flex-end" gap="xs" wrap="nowrap">
                <TextInput
                  label={t('form.mark')}
                  value={row.mark}
                  onChange={(e) => {
                    const mark = e.currentTarget.value;
                    setScale(values.markScale.map((r, j) => (j === i ? { ...r, mark } : r)));
                  }}
                  w={110}
                  data-testid={`mark-${i}`}
                />
                <NumberInput
                  label={t('form.minScore')}
                  min={0}
                  value={row.minScore}
                  onChange={(minScore) =>
                    setScale(values.markScale.map((r, j) => (j === i ? { ...r, minScore } : r)))
                  }
                  w={130}
                  data-testid={`mark-min-${i}`}
                />
                <TextInput
                  label={t('form.level')}
                  value={row.level}
                  onChange={(e) => {
                    const level = e.currentTarget.value;
                    setScale(values.markScale.map((r, j) => (j === i ? { ...r, level } : r)));
                  }}
                  w={200}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={t('form.removeMark', { mark: row.mark || i + 1 })}
                  onClick={() => setScale(values.markScale.filter((_, j) => j !== i))}
                >
                  ✕
                </ActionIcon>
              </Group>
            ))}
            {form.fieldErrors.markScale && (
              <Text size="sm" c="red" role="alert">
                {form.fieldErrors.markScale}
              </Text>
            )}
            <Group>
              <Button
                size="xs"
                variant="light"
                onClick={() =>
                  setScale([...values.markScale, { key: rowKey(), mark: '', minScore: '', level: '' }])
                }
                data-testid="mark-add"
              >
                {t('form.addMark')}
              </Button>
            </Group>
          </Stack>
        </Fieldset>

        <Fieldset legend={t('form.levelBands')} data-testid="level-bands">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('form.levelBandsHint')}
            </Text>
            {values.levelBands.map((row, i) => (
              <Group key={row.key} align="flex-end" gap="xs" wrap="nowrap">
                <TextInput
                  label={t('form.bandLevel')}
                  value={row.level}
                  onChange={(e) => {
                    const level = e.currentTarget.value;
                    setBands(values.levelBands.map((r, j) => (j === i ? { ...r, level } : r)));
                  }}
                  w={220}
                />
                <NumberInput
                  label={t('form.minPercent')}
                  min={0}
                  max={100}
                  value={row.minPercent}
                  onChange={(minPercent) =>
                    setBands(values.levelBands.map((r, j) => (j === i ? { ...r, minPercent } : r)))
                  }
                  w={110}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={t('form.removeBand', { level: row.level || i + 1 })}
                  onClick={() => setBands(values.levelBands.filter((_, j) => j !== i))}
                >
                  ✕
                </ActionIcon>
              </Group>
            ))}
            {form.fieldErrors.levelBands && (
              <Text size="sm" c="red" role="alert">
                {form.fieldErrors.levelBands}
              </Text>
            )}
            <Group>
              <Button
                size="xs"
                variant="light"
                onClick={() => setBands([...values.levelBands, { key: rowKey(), level: '', minPercent: '' }])}
              >
                {t('form.addBand')}
              </Button>
            </Group>
          </Stack>
        </Fieldset>

        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
          )}
          <LoadingButton type="submit" loading={form.isLoading} data-testid="test-save">
            {test ? t('common.save') : t('common.create')}
          </LoadingButton>
        </Group>
      </Stack>
    </PlainForm>
  );
}

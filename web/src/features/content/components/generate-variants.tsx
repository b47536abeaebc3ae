/**
 * Variants generated from the subject's pool by a blueprint: how many, a seed, and rows (by
 * specification element, by category, or the whole pool) with a count and points per task. A pool
 * too small for a row is said plainly, with the row and the numbers.
 */
import { generateVariantsBodySchema, type AuthoringSubjectTest } from '@attesta/contract';
import {
  ActionIcon,
  Alert,
  Button,
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { contentKeys } from '../api/shared';
import { generateVariants } from '../api/variants';
import { useEditForm } from '../../../lib/use-edit-form';
import { useContentT } from '../locales';
import { FormModal } from '../../../components/ui/form-modal';
import { ElementSelect } from './pickers';

type Source = 'pool' | 'element' | 'category';
interface Row {
  key: string;
  source: Source;
  elementId: number | null;
  category: string;
  count: number | string;
  maxScore: number | string;
}

let rowSeq = 0;
const newRow = (): Row => ({
  key: `bp-${++rowSeq}`,
  source: 'pool',
  elementId: null,
  category: '',
  count: 1,
  maxScore: '',
});
const num = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? undefined : Number(v));
const paramOf = (e: ApiError, name: string) => Number(e.fieldErrors[0]?.params?.[name] ?? NaN);

export function GenerateVariants({
  subjectTest,
  onClose,
}: {
  subjectTest: Pick<AuthoringSubjectTest, 'id' | 'specificationId'>;
  onClose: (message: string | null) => void;
}) {
  const t = useContentT();
  const { t: appT } = useTranslation();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({
    count: 2 as number | string,
    seed: String(new Date().getFullYear()),
    blueprint: [newRow()],
  }));
  const [poolError, setPoolError] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<Record<number, 'required' | 'mixed'>>({});
  const rows = form.values.blueprint;
  const setRow = (i: number, patch: Partial<Row>) => {
    form.set(
      'blueprint',
      rows.map((r, j) => (j === i ? { ...r, ...patch } : r)),
    );
    setRowErrors(({ [i]: _, ...rest }) => rest);
  };
  const specificationId = subjectTest.specificationId;

  const onSubmit = () => {
    setPoolError(null);
    const missing: Record<number, 'required'> = {};
    rows.forEach((r, i) => {
      if (r.source === 'element' && r.elementId === null) missing[i] = 'required';
      if (r.source === 'category' && !r.category.trim()) missing[i] = 'required';
    });
    setRowErrors(missing);
    const seed = form.values.seed.trim();
    return form.submit(
      generateVariantsBodySchema.safeParse({
        count: num(form.values.count),
        seed: /^-?\d{1,15}$/.test(seed) ? Number(seed) : seed,
        blueprint: rows.map((r) => ({
          ...(r.source === 'element' && r.elementId !== null ? { elementId: r.elementId } : {}),
          ...(r.source === 'category' ? { category: r.category } : {}),
          count: num(r.count),
          ...(num(r.maxScore) === undefined ? {} : { maxScore: num(r.maxScore) }),
        })),
      }),
      async (body) => {
        try {
          const created = await generateVariants(subjectTest.id, body);
          await queryClient.invalidateQueries({ queryKey: contentKeys.subjectTests });
          onClose(t('generate.done', { count: created.length }));
        } catch (error) {
          if (error instanceof ApiError && error.code === 'pool_too_small') {
            const row = paramOf(error, 'row');
            setPoolError(
              Number.isNaN(row)
                ? t('generate.poolTooSmallShort')
                : t('generate.poolTooSmall', {
                    row: row + 1,
                    needed: paramOf(error, 'needed'),
                    available: paramOf(error, 'available'),
                  }),
            );
            return;
          }
          const mixed =
            error instanceof ApiError
              ? error.fieldErrors.find((f) => f.code === 'mixed_max_score')
              : undefined;
          if (mixed) {
            const row = Number(/blueprint\.(\d+)/.exec(mixed.path)?.[1] ?? NaN);
            if (!Number.isNaN(row)) {
              setRowErrors({ [row]: 'mixed' });
              return;
            }
          }
          throw error;
        }
      },
      { extraErrors: Object.keys(missing).length ? { blueprint: t('generate.rows') } : {} },
    );
  };

  const sources = [
    { value: 'pool', label: t('generate.sourcePool') },
    { value: 'element', label: t('generate.sourceElement'), disabled: specificationId === null },
    { value: 'category', label: t('generate.sourceCategory') },
  ];

  return (
    <FormModal
      title={t('generate.title')}
      testId="generate-form"
      form={form}
      onSubmit={onSubmit}
      onClose={() => onClose(null)}
      submitLabel={t('generate.submit')}
      size="xl"
    >
      <Text size="sm" c="dimmed">
        {t('generate.hint')}
      </Text>
      {poolError && (
        <Alert color="red" role="alert" data-testid="pool-too-small">
          {poolError}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput
          label={t('generate.count')}
          withAsterisk
          min={1}
          max={100}
          allowDecimal={false}
          value={form.values.count}
          onChange={(v) => form.set('count', v)}
          {...form.errorOf('count')}
          data-testid="generate-count"
        />
        <TextInput
          label={t('generate.seed')}
          description={t('generate.seedHint')}
          withAsterisk
          {...form.text('seed')}
          data-testid="generate-seed"
        />
      </SimpleGrid>
      {specificationId === null && (
        <Text size="sm" c="dimmed">
          {t('generate.noSpecification')}
        </Text>
      )}
      <Stack gap="sm">
        {rows.map((row, i) => (
          <Fieldset
            key={row.key}
            legend={t('generate.rowLabel', { n: i + 1 })}
            data-testid={`blueprint-row-${i}`}
          >
            <Group align="flex-end" gap="xs" wrap="wrap">
              <Select
                label={t('generate.source')}
                data={sources}
                value={row.source}
                allowDeselect={false}
                onChange={(v) => setRow(i, { source: (v as Source | null) ?? 'pool' })}
                w={240}
                data-testid={`blueprint-source-${i}`}
              />
              {row.source === 'element' && specificationId !== null && (
                <ElementSelect
                  label={t('generate.element')}
                  specificationId={specificationId}
                  value={row.elementId}
                  onChange={(elementId) => setRow(i, { elementId })}
                  error={rowErrors[i] === 'required' ? appT('validation.required') : undefined}
                  w={300}
                  data-testid={`blueprint-element-${i}`}
                />
              )}
              {row.source === 'category' && (
                <TextInput
                  label={t('generate.category')}
                  description={t('generate.categoryHint')}
                  value={row.category}
                  onChange={(e) => setRow(i, { category: e.currentTarget.value })}
                  error={rowErrors[i] === 'required' ? appT('validation.required') : undefined}
                  w={300}
                  data-testid={`blueprint-category-${i}`}
                />
              )}
              <NumberInput
                label={t('generate.rowCount')}
                min={1}
                max={100}
                allowDecimal={false}
                value={row.count}
                onChange={(count) => setRow(i, { count })}
                w={100}
                data-testid={`blueprint-count-${i}`}
              />
              <NumberInput
                label={t('generate.rowScore')}
                description={t('generate.rowScoreHint')}
                min={0}
                max={100}
                decimalScale={2}
                value={row.maxScore}
                onChange={(maxScore) => setRow(i, { maxScore })}
                error={rowErrors[i] === 'mixed' ? t('generate.mixedScore') : undefined}
                w={160}
                data-testid={`blueprint-score-${i}`}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                disabled={rows.length === 1}
                aria-label={t('generate.removeRow', { n: i + 1 })}
                onClick={() =>
                  form.set(
                    'blueprint',
                    rows.filter((_, j) => j !== i),
                  )
                }
              >
                ✕
              </ActionIcon>
            </Group>
          </Fieldset>
        ))}
        {form.fieldErrors.blueprint && Object.keys(rowErrors).length === 0 && (
          <Text size="sm" c="red" role="alert">
            {form.fieldErrors.blueprint}
          </Text>
        )}
        <Group>
          <Button
            size="xs"
            variant="light"
            onClick={() => form.set('blueprint', [...rows, newRow()])}
            data-testid="blueprint-add"
          >
            {t('generate.addRow')}
          </Button>
        </Group>
      </Stack>
    </FormModal>
  );
}

/**
 * A variant by hand: tasks picked from the subject's pool by a searchable picker, put in order,
 * each position with its max score. Creates a variant or changes one (a variant works were
 * written on gets a new version).
 */
import {
  variantBodySchema,
  variantUpdateBodySchema,
  type AuthoringSubjectTest,
  type AuthoringVariant,
} from '@attesta/contract';
import { ActionIcon, Alert, Group, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { contentKeys } from '../api/shared';
import { createVariant, updateVariant } from '../api/variants';
import { useEditForm } from '../../../lib/use-edit-form';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { FormModal } from '../../../components/ui/form-modal';
import { TaskPicker, taskLabel } from './pickers';

interface Row {
  taskId: number;
  label: string;
  answerType: string;
  maxScore: number | string;
}

const num = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? undefined : Number(v));

export function VariantBuilder({
  subjectTest,
  variant,
  onClose,
}: {
  subjectTest: Pick<AuthoringSubjectTest, 'id' | 'subjectId'>;
  variant: AuthoringVariant | null;
  onClose: (message: string | null) => void;
}) {
  const t = useContentT();
  const labels = useLabels();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({
    number: '' as number | string,
    tasks: (variant?.tasks ?? []).map((task): Row => ({
      taskId: task.taskId,
      label: task.title ? `№ ${task.taskId} · ${task.title}` : t('variants.untitled', { id: task.taskId }),
      answerType: task.answerType,
      maxScore: task.maxScore,
    })),
  }));
  const rows = form.values.tasks;
  const setRows = (next: Row[]) => form.set('tasks', next);
  const move = (i: number, by: -1 | 1) => {
    const next = [...rows];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    setRows(next);
  };
  const total = rows.reduce((sum, r) => sum + (num(r.maxScore) ?? 0), 0);

  const onSubmit = () => {
    const tasks = rows.map((r) => ({ taskId: r.taskId, maxScore: num(r.maxScore) }));
    const extraErrors: Record<string, string> = rows.length === 0 ? { tasks: t('builder.empty') } : {};
    // The test's variants, validation and variant count (the list) all change.
    const refresh = () => queryClient.invalidateQueries({ queryKey: contentKeys.subjectTests });
    if (variant)
      return form.submit(
        variantUpdateBodySchema.safeParse({ tasks }),
        async (body) => {
          const saved = await updateVariant(variant.id, body.tasks);
          await refresh();
          onClose(t('builder.updated', { n: saved.number }));
        },
        { extraErrors },
      );
    const number = num(form.values.number);
    return form.submit(
      variantBodySchema.safeParse({ ...(number === undefined ? {} : { number }), tasks }),
      async (body) => {
        const saved = await createVariant(subjectTest.id, body);
        await refresh();
        onClose(t('builder.created', { n: saved.number }));
      },
      {
        extraErrors,
        codeToField: { conflict: { field: 'number', message: t('builder.numberTaken') } },
      },
    );
  };

  return (
    <FormModal
      title={variant ? t('builder.editTitle', { n: variant.number }) : t('builder.createTitle')}
      testId="variant-builder"
      form={form}
      onSubmit={onSubmit}
      onClose={() => onClose(null)}
      size="xl"
    >
      {variant?.usedByWorks && (
        <Alert color="blue" variant="light">
          {t('builder.usedNotice')}
        </Alert>
      )}
      {!variant && (
        <NumberInput
          label={t('builder.number')}
          description={t('builder.numberHint')}
          min={1}
          allowDecimal={false}
          value={form.values.number}
          onChange={(v) => form.set('number', v)}
          {...form.errorOf('number')}
          w={240}
          data-testid="variant-number"
        />
      )}
      <TaskPicker
        label={t('builder.pick')}
        placeholder={t('builder.pickPlaceholder')}
        subjectId={subjectTest.subjectId}
        exclude={new Set(rows.map((r) => r.taskId))}
        onPick={(task) =>
          setRows([
            ...rows,
            { taskId: task.id, label: taskLabel(task), answerType: task.answerType, maxScore: task.maxScore },
          ])
        }
        data-testid="variant-task-picker"
      />
      <Stack gap={4}>
        <Text fw={600} size="sm" id="variant-tasks-caption">
          {t('builder.added')}
        </Text>
        {rows.length === 0 ? (
          <Text
            size="sm"
            c={form.fieldErrors.tasks ? 'red' : 'dimmed'}
            role={form.fieldErrors.tasks ? 'alert' : undefined}
          >
            {form.fieldErrors.tasks ?? t('builder.empty')}
          </Text>
        ) : (
          <Table aria-labelledby="variant-tasks-caption" data-testid="variant-tasks">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('builder.position')}</Table.Th>
                <Table.Th>{t('builder.task')}</Table.Th>
                <Table.Th>{t('builder.type')}</Table.Th>
                <Table.Th>{t('builder.score')}</Table.Th>
                <Table.Th>{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, i) => (
                <Table.Tr key={row.taskId} data-testid="variant-task-row">
                  <Table.Td>{i + 1}</Table.Td>
                  <Table.Td>{row.label}</Table.Td>
                  <Table.Td>{labels.answerType(row.answerType)}</Table.Td>
                  <Table.Td>
                    <NumberInput
                      aria-label={`${t('builder.score')}: ${i + 1}`}
                      min={0}
                      max={100}
                      decimalScale={2}
                      value={row.maxScore}
                      onChange={(maxScore) => setRows(rows.map((r, j) => (j === i ? { ...r, maxScore } : r)))}
                      w={100}
                      size="xs"
                      data-testid={`variant-score-${i}`}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={2} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`${t('common.moveUp')}: ${i + 1}`}
                        disabled={i === 0}
                        onClick={() => move(i, -1)}
                      >
                        ↑
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        aria-label={`${t('common.moveDown')}: ${i + 1}`}
                        disabled={i === rows.length - 1}
                        onClick={() => move(i, 1)}
                      >
                        ↓
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`${t('common.remove')}: ${i + 1}`}
                        onClick={() => setRows(rows.filter((_, j) => j !== i))}
                      >
                        ✕
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {rows.length > 0 && form.fieldErrors.tasks && (
          <Text size="sm" c="red" role="alert">
            {form.fieldErrors.tasks}
          </Text>
        )}
        {rows.length > 0 && (
          <Text size="sm" c="dimmed" data-testid="variant-total">
            {t('builder.total', { total: Math.round(total * 100) / 100 })}
          </Text>
        )}
      </Stack>
    </FormModal>
  );
}

/** The current variants of a subject test: their tasks, preview, edit, delete; build and generate. */
import type { AuthoringSubjectTest, AuthoringVariant } from '@attesta/contract';
import { Alert, Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { contentKeys } from '../api/shared';
import { deleteVariant, variantsQuery } from '../api/variants';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { GenerateVariants } from './generate-variants';
import { VariantBuilder } from './variant-builder';

type Dialog =
  | { kind: 'build'; variant: AuthoringVariant | null }
  | { kind: 'generate' }
  | { kind: 'delete'; variant: AuthoringVariant }
  | null;

export function VariantsPanel({ subjectTest }: { subjectTest: AuthoringSubjectTest }) {
  const t = useContentT();
  const labels = useLabels();
  const queryClient = useQueryClient();
  const variants = useQuery(variantsQuery(subjectTest.id));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const done = (message: string | null) => {
    setDialog(null);
    if (message) setNotice(message);
  };

  const columns: Column<AuthoringVariant>[] = [
    { key: 'number', header: t('variants.number'), render: (v) => v.number, csv: (v) => v.number },
    {
      key: 'tasks',
      header: t('variants.tasks'),
      render: (v) => (
        <List size="sm" spacing={0} listStyleType="none" data-testid={`variant-tasks-${v.number}`}>
          {v.tasks.map((task) => (
            <List.Item key={task.variantTaskId}>
              {t('variants.taskLine', {
                position: task.position,
                title: task.title || t('variants.untitled', { id: task.taskId }),
                type: labels.answerType(task.answerType),
                score: task.maxScore,
              })}
            </List.Item>
          ))}
        </List>
      ),
      csv: (v) => v.tasks.map((task) => task.taskId).join(' '),
    },
    { key: 'max', header: t('variants.maxScore'), render: (v) => v.maxScore, csv: (v) => v.maxScore },
    {
      key: 'used',
      header: t('variants.used'),
      render: (v) =>
        v.usedByWorks ? (
          <Badge color="blue" variant="light" title={t('variants.usedHint')}>
            {t('variants.usedYes')}
          </Badge>
        ) : (
          t('variants.usedNo')
        ),
      csv: (v) => (v.usedByWorks ? t('variants.usedYes') : t('variants.usedNo')),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (v) => (
        <Group gap={4} wrap="nowrap">
          <Button
            component={Link}
            to={`${CONTENT_BASE}/tests/${subjectTest.id}/variants/${v.id}/preview`}
            size="compact-xs"
            variant="light"
            aria-label={t('variants.previewOf', { n: v.number })}
            data-testid={`variant-preview-${v.number}`}
          >
            {t('variants.preview')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            aria-label={t('variants.editOf', { n: v.number })}
            onClick={() => setDialog({ kind: 'build', variant: v })}
            data-testid={`variant-edit-${v.number}`}
          >
            {t('common.edit')}
          </Button>
          {!v.usedByWorks && (
            <Button
              size="compact-xs"
              variant="light"
              color="red"
              aria-label={t('variants.deleteOf', { n: v.number })}
              onClick={() => setDialog({ kind: 'delete', variant: v })}
              data-testid={`variant-delete-${v.number}`}
            >
              {t('common.delete')}
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      {notice && (
        <Alert color="green" role="status" withCloseButton onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {variants.data?.length === 0 && (
        <Text c="dimmed" size="sm">
          {t('variants.none')}
        </Text>
      )}
      <RowsTable
        caption={t('variants.caption')}
        rows={variants.data}
        error={variants.error}
        onRetry={() => void variants.refetch()}
        columns={columns}
        rowKey={(v) => v.id}
        testId="variants-table"
        exportName={`variants-${subjectTest.id}`}
        actions={
          <>
            <Button onClick={() => setDialog({ kind: 'build', variant: null })} data-testid="variant-build">
              {t('variants.build')}
            </Button>
            <Button
              variant="light"
              onClick={() => setDialog({ kind: 'generate' })}
              data-testid="variant-generate"
            >
              {t('variants.generate')}
            </Button>
          </>
        }
      />
      {dialog?.kind === 'build' && (
        <VariantBuilder subjectTest={subjectTest} variant={dialog.variant} onClose={done} />
      )}
      {dialog?.kind === 'generate' && <GenerateVariants subjectTest={subjectTest} onClose={done} />}
      {dialog?.kind === 'delete' && (
        <ConfirmDelete
          title={t('common.confirmDelete')}
          question={t('variants.deleteQuestion', { n: dialog.variant.number })}
          confirmLabel={t('common.delete')}
          cancelLabel={t('common.cancel')}
          conflicts={{ has_exam_works: t('variants.hasWorks') }}
          onConfirm={async () => {
            await deleteVariant(dialog.variant.id);
            await queryClient.invalidateQueries({ queryKey: contentKeys.subjectTests });
            setNotice(t('variants.deleted', { n: dialog.variant.number }));
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}

/** `/admin/content/tasks`: the task pool (current versions) with filters; a task opens in the editor. */
import { Anchor, Badge, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable, RowsTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { instant } from '../../../components/staff-format';
import { PageTitle } from '../../../components/ui/page-title';
import { contentKeys } from '../api/shared';
import { subjectsQuery } from '../api/subjects';
import { listTasks, taskVersionsQuery, type TaskListItem, type TaskVersion } from '../api/tasks';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { SubjectSelect } from './pickers';

interface TaskFilter {
  subjectId?: number;
  category?: string;
  answerType?: string;
  search?: string;
}

function VersionsModal({ taskId, onClose }: { taskId: number; onClose: () => void }) {
  const t = useContentT();
  const versions = useQuery(taskVersionsQuery(taskId));
  const columns: Column<TaskVersion>[] = [
    { key: 'version', header: t('tasks.version'), render: (v) => v.version, csv: (v) => v.version },
    {
      key: 'id',
      header: t('common.id'),
      render: (v) => (
        <Anchor component={Link} to={`${CONTENT_BASE}/tasks/${v.id}`}>
          {v.id}
        </Anchor>
      ),
      csv: (v) => v.id,
    },
    {
      key: 'state',
      header: t('tests.status'),
      render: (v) =>
        v.supersededAt ? (
          <Badge color="gray" variant="light">
            {t('tasks.superseded')}: {instant(v.supersededAt)}
          </Badge>
        ) : (
          <Badge color="green" variant="light">
            {t('tasks.current')}
          </Badge>
        ),
      csv: (v) => (v.supersededAt ? instant(v.supersededAt) : ''),
    },
    {
      key: 'works',
      header: t('tasks.usedByWorks'),
      render: (v) => (v.usedByWorks ? t('common.yes') : t('common.no')),
      csv: (v) => (v.usedByWorks ? t('common.yes') : t('common.no')),
    },
    {
      key: 'created',
      header: t('tasks.createdAt'),
      render: (v) => instant(v.createdAt),
      csv: (v) => instant(v.createdAt),
    },
  ];
  return (
    <Modal opened onClose={onClose} title={t('tasks.versionsTitle', { id: taskId })} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('tasks.versionsHint')}
        </Text>
        <RowsTable
          caption={t('tasks.versions')}
          rows={versions.data}
          error={versions.error}
          onRetry={() => void versions.refetch()}
          columns={columns}
          rowKey={(v) => v.id}
          testId="versions-table"
        />
      </Stack>
    </Modal>
  );
}

export function TaskPoolPage() {
  const t = useContentT();
  const labels = useLabels();
  const [filter, setFilter] = useFilter<TaskFilter>({});
  const [versions, setVersions] = useState<number | null>(null);
  const subjects = useQuery(subjectsQuery());
  const subjectName = (id: number | null) =>
    id === null ? t('common.none') : (subjects.data?.find((s) => s.id === id)?.name ?? `#${id}`);

  const columns: Column<TaskListItem, 'id' | 'title' | 'category' | 'createdAt' | 'updatedAt'>[] = [
    { key: 'id', header: t('common.id'), render: (r) => r.id, csv: (r) => r.id, sortField: 'id' },
    {
      key: 'title',
      header: t('tasks.taskTitle'),
      render: (r) => (
        <Stack gap={0} maw={420}>
          <Anchor
            component={Link}
            to={`${CONTENT_BASE}/tasks/${r.id}`}
            lineClamp={2}
            data-testid={`task-link-${r.id}`}
          >
            {r.title || r.text || t('tasks.untitled')}
          </Anchor>
          {r.title && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {r.text}
            </Text>
          )}
        </Stack>
      ),
      csv: (r) => r.title ?? r.text,
      sortField: 'title',
    },
    {
      key: 'subject',
      header: t('common.subject'),
      render: (r) => subjectName(r.subjectId),
      csv: (r) => subjectName(r.subjectId),
    },
    {
      key: 'category',
      header: t('tasks.category'),
      render: (r) => r.category ?? t('common.none'),
      csv: (r) => r.category,
      sortField: 'category',
    },
    {
      key: 'type',
      header: t('tasks.answerType'),
      render: (r) => labels.answerType(r.answerType),
      csv: (r) => labels.answerType(r.answerType),
    },
    { key: 'max', header: t('tasks.maxScore'), render: (r) => r.maxScore, csv: (r) => r.maxScore },
    { key: 'version', header: t('tasks.version'), render: (r) => r.version, csv: (r) => r.version },
    {
      key: 'updated',
      header: t('tasks.updated'),
      render: (r) => instant(r.updatedAt ?? r.createdAt),
      csv: (r) => instant(r.updatedAt ?? r.createdAt),
      sortField: 'updatedAt',
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <Button component={Link} to={`${CONTENT_BASE}/tasks/${r.id}`} size="compact-xs" variant="light">
            {t('common.open')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            aria-label={t('tasks.versionsOf', { id: r.id })}
            onClick={() => setVersions(r.id)}
            data-testid={`task-versions-${r.id}`}
          >
            {t('tasks.versions')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle>{t('tasks.title')}</PageTitle>
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('tasks.search')}
          placeholder={t('tasks.searchPlaceholder')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={260}
          data-testid="tasks-search"
        />
        <SubjectSelect
          label={t('common.subject')}
          placeholder={t('common.anySubject')}
          clearable
          value={filter.subjectId ?? null}
          onChange={(id) => setFilter({ subjectId: id ?? undefined })}
          w={220}
        />
        <TextInput
          label={t('tasks.category')}
          placeholder={t('tasks.categoryPlaceholder')}
          value={filter.category ?? ''}
          onChange={(e) => setFilter({ category: e.currentTarget.value })}
          w={220}
        />
        <Select
          label={t('tasks.answerType')}
          placeholder={t('common.any')}
          clearable
          searchable
          data={labels.answerTypeOptions}
          value={filter.answerType ?? null}
          onChange={(v) => setFilter({ answerType: v ?? undefined })}
          w={260}
          data-testid="tasks-type"
        />
        <Button
          component={Link}
          to={`${CONTENT_BASE}/tasks/new${filter.subjectId ? `?subjectId=${filter.subjectId}` : ''}`}
          data-testid="task-create"
        >
          {t('tasks.create')}
        </Button>
      </Group>
      <DataTable
        caption={t('tasks.caption')}
        queryKey={contentKeys.tasks}
        fetchPage={listTasks}
        filter={filter}
        initialSort={{ field: 'id', dir: 'desc' }}
        pageSize={20}
        columns={columns}
        rowKey={(r) => r.id}
        exportName="tasks"
        testId="tasks-table"
      />
      {versions !== null && <VersionsModal taskId={versions} onClose={() => setVersions(null)} />}
    </Stack>
  );
}

/** Every version of the task, oldest first: when made, whether works use it, which one is current. */
import { Alert, Badge, Loader, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { describeApiError } from '../../../../lib/form-errors';
import { formatDisplayDateTime } from '../../../../lib/format';
import { getTaskVersions, taskEditorKeys } from '../api/tasks';
import { useTaskEditorT } from '../locales';

export function VersionsList({ taskId }: { taskId: number }) {
  const { t } = useTaskEditorT();
  const versions = useQuery({
    queryKey: taskEditorKeys.versions(taskId),
    queryFn: () => getTaskVersions(taskId),
    retry: false,
  });
  if (versions.isLoading) return <Loader size="sm" />;
  if (versions.error)
    return (
      <Alert color="red" role="alert">
        {describeApiError(versions.error, t)}
      </Alert>
    );
  const rows = versions.data ?? [];
  if (!rows.length) return <Text size="sm">{t('taskEditor.versions.none')}</Text>;
  return (
    <Table striped withTableBorder data-testid="versions">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('taskEditor.versions.version')}</Table.Th>
          <Table.Th>{t('taskEditor.versions.created')}</Table.Th>
          <Table.Th>{t('taskEditor.versions.updated')}</Table.Th>
          <Table.Th>{t('taskEditor.versions.state')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((v) => (
          <Table.Tr key={v.id}>
            <Table.Td>{t('taskEditor.versions.number', { n: v.version })}</Table.Td>
            <Table.Td>{formatDisplayDateTime(new Date(v.createdAt))}</Table.Td>
            <Table.Td>{v.updatedAt ? formatDisplayDateTime(new Date(v.updatedAt)) : '—'}</Table.Td>
            <Table.Td>
              {v.supersededAt ? (
                <Badge variant="light" color="gray">
                  {t('taskEditor.versions.superseded')}
                </Badge>
              ) : (
                <Badge variant="light" color="green">
                  {t('taskEditor.versions.current')}
                </Badge>
              )}{' '}
              {v.usedByWorks && (
                <Badge variant="light" color="orange">
                  {t('taskEditor.versions.usedByWorks')}
                </Badge>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

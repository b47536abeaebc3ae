import { Alert, Button, Group, Loader, Pagination, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { apiClient, ApiError } from '../../lib/api-client';
import { toCsv, type CsvValue } from './csv';
import { saveBlob } from './download';
import { cleanFilter, fetchAllPages, type FetchPage, type PageRequest, type SortState } from './list-request';
import { dataTableBundle } from './locales';
import { LoadingButton } from '../ui/loading-button';
import { useBundleT } from './use-bundle-t';

export interface Column<T> {
  key: string;
  header: ReactNode;
  /** Header text for the CSV file (defaults to `header` when it is a string). */
  csvHeader?: string;
  render: (row: T) => ReactNode;
  /** Server sort field; the column header becomes a sort toggle. */
  sortField?: string;
  /** Value for the CSV export; columns without it (actions) are left out. */
  csv?: (row: T) => CsvValue;
}

export interface DataTableProps<T> {
  /** Query key prefix; mutations invalidate it to refresh the list. */
  queryKey: readonly unknown[];
  fetchPage: FetchPage<T>;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string | number;
  filter?: Record<string, unknown>;
  /** Filter inputs shown above the table. */
  filters?: ReactNode;
  /** Buttons next to the export button. */
  actions?: ReactNode;
  initialSort?: SortState;
  pageSize?: number;
  /** File name of the CSV export; without it there is no export button. */
  exportName?: string;
  /** Polling interval while the shown rows need it (live status, running jobs). */
  refreshInterval?: (items: T[]) => number | false;
  testId?: string;
}

function errorText(error: unknown, t: (key: string, o?: Record<string, unknown>) => string) {
  if (error instanceof ApiError && error.status === 403) return t('dataTable.forbidden');
  return t('dataTable.failed', { message: error instanceof Error ? error.message : String(error) });
}

/** A server-paged, sortable list with filters, empty/loading/error states and CSV export. */
export function DataTable<T>({
  queryKey,
  fetchPage,
  columns,
  rowKey,
  filter,
  filters,
  actions,
  initialSort,
  pageSize = 50,
  exportName,
  refreshInterval,
  testId = 'data-table',
}: DataTableProps<T>) {
  const { t } = useBundleT(dataTableBundle);
  const cleaned = cleanFilter(filter);
  const filterKey = JSON.stringify(cleaned ?? {});
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const [sort, setSort] = useState<SortState | undefined>(initialSort);
  // A new filter starts again at page 1.
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const request: PageRequest = { page, pageSize, sort, filter: cleaned };

  const query = useQuery({
    queryKey: [...queryKey, request],
    queryFn: ({ signal }) => fetchPage(request, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (refreshInterval && q.state.data ? refreshInterval(q.state.data.items) : false),
  });

  useEffect(() => {
    if (query.error instanceof ApiError && query.error.status === 401) apiClient.redirectFor(query.error);
  }, [query.error]);

  const toggleSort = (field: string) => {
    setSort((current) =>
      current?.field === field
        ? { field, dir: current.dir === 'asc' ? 'desc' : 'asc' }
        : { field, dir: 'asc' },
    );
    setPaging({ filterKey, page: 1 });
  };

  const exportCsv = async () => {
    const rows = await fetchAllPages(fetchPage, { sort, filter: cleaned });
    const exported = columns.filter((c) => c.csv);
    const header = exported.map((c) => c.csvHeader ?? (typeof c.header === 'string' ? c.header : c.key));
    const csv = toCsv(
      header,
      rows.map((row) => exported.map((c) => c.csv!(row))),
    );
    saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `${exportName}.csv`);
  };

  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / pageSize)) : 1;

  return (
    <Stack gap="sm" data-testid={testId}>
      {(filters || actions || exportName) && (
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Group align="flex-end" wrap="wrap">
            {filters}
          </Group>
          <Group>
            {actions}
            {exportName && (
              <LoadingButton variant="default" onClick={exportCsv} data-testid={`${testId}-export`}>
                {t('dataTable.exportCsv')}
              </LoadingButton>
            )}
          </Group>
        </Group>
      )}
      {query.isError && !(query.error instanceof ApiError && query.error.status === 401) ? (
        <Alert color="red" role="alert" data-testid={`${testId}-error`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorText(query.error, t)}</Text>
            {!(query.error instanceof ApiError && query.error.status === 403) && (
              <Button size="xs" variant="light" onClick={() => void query.refetch()}>
                {t('dataTable.retry')}
              </Button>
            )}
          </Stack>
        </Alert>
      ) : query.isPending ? (
        <Group justify="center" p="lg" data-testid={`${testId}-loading`}>
          <Loader size="sm" aria-label={t('dataTable.loading')} />
        </Group>
      ) : (
        <>
          <Table.ScrollContainer minWidth={600}>
            <Table striped highlightOnHover aria-busy={query.isFetching || undefined}>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((column) => {
                    const active = column.sortField && sort?.field === column.sortField ? sort : null;
                    return (
                      <Table.Th
                        key={column.key}
                        aria-sort={active ? (active.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                      >
                        {column.sortField ? (
                          <UnstyledButton
                            fw={700}
                            fz="sm"
                            onClick={() => toggleSort(column.sortField!)}
                            data-testid={`${testId}-sort-${column.key}`}
                          >
                            {column.header}
                            {active ? (active.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                          </UnstyledButton>
                        ) : (
                          column.header
                        )}
                      </Table.Th>
                    );
                  })}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data && data.items.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={columns.length}>
                      <Text c="dimmed" ta="center" py="md" data-testid={`${testId}-empty`}>
                        {t('dataTable.empty')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  data?.items.map((row) => (
                    <Table.Tr key={rowKey(row)} data-testid={`${testId}-row`}>
                      {columns.map((column) => (
                        <Table.Td key={column.key}>{column.render(row)}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid={`${testId}-total`}>
              {t('dataTable.total', { count: data?.total ?? 0 })}
            </Text>
            {pages > 1 && (
              <Pagination
                total={pages}
                value={page}
                onChange={(next) => setPaging({ filterKey, page: next })}
                data-testid={`${testId}-pagination`}
              />
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}

import {
  Alert,
  Button,
  Group,
  Loader,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { ApiError, isSessionGone } from '../../lib/api-client';
import { ActionsLabel } from '../ui/actions-header';
import { LoadingButton } from '../ui/loading-button';
import { toCsv, type CsvValue } from './csv';
import { saveBlob } from './download';
import { cleanFilter, fetchAllPages, type FetchPage, type PageRequest, type SortState } from './list-request';
import { dataTableBundle } from './locales';
import { useBundleT, type LooseT } from './use-bundle-t';
import { describeApiError } from '../../lib/form-errors';

export interface Column<T, F extends string = string> {
  key: string;
  header: ReactNode;
  /** Header text for the CSV file (defaults to `header` when it is a string). */
  csvHeader?: string;
  render: (row: T) => ReactNode;
  /** Server sort field; the column header becomes a sort toggle. */
  sortField?: F;
  /** Value for the CSV export; columns without it (actions) are left out. */
  csv?: (row: T) => CsvValue;
}

/** What every table of the kit takes, whoever loads its rows. */
interface TableFrameProps<T, F extends string> {
  columns: readonly Column<T, F>[];
  rowKey: (row: T) => string | number;
  /** Extra attributes of a row (a highlight). */
  rowProps?: (row: T) => ComponentPropsWithoutRef<'tr'>;
  /** The table's caption, its accessible name. */
  caption?: string;
  /** Filter inputs shown above the table. */
  filters?: ReactNode;
  /** Buttons next to the export button. */
  actions?: ReactNode;
  /** File name of the CSV export; without it there is no export button. */
  exportName?: string;
  testId?: string;
}

export interface DataTableProps<
  T,
  F extends string = string,
  Filter extends object = Record<string, unknown>,
> extends TableFrameProps<T, F> {
  /** Query key prefix; mutations invalidate it to refresh the list. */
  queryKey: readonly unknown[];
  fetchPage: FetchPage<T, F, Filter>;
  filter?: Filter;
  initialSort?: SortState<F>;
  pageSize?: number;
  /** Polling interval while the shown rows need it (live status, running jobs). */
  refreshInterval?: (items: T[]) => number | false;
}

export interface RowsTableProps<T> extends TableFrameProps<T, string> {
  /** Every row, already loaded by the page (undefined while it loads). */
  rows: readonly T[] | undefined;
  error?: unknown;
  onRetry?: () => void;
}

const PAGE_SIZES = [10, 20, 50, 100];

interface Paging {
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
}

interface TableViewProps<T, F extends string> extends TableFrameProps<T, F> {
  items: readonly T[] | undefined;
  total: number;
  pending: boolean;
  fetching: boolean;
  error: unknown;
  onRetry?: () => void;
  sort?: SortState<F>;
  onSort?: (field: F) => void;
  paging?: Paging;
  /** The rows the CSV file gets. */
  exportRows: () => Promise<readonly T[]>;
}

const isStatus = (error: unknown, status: number) => error instanceof ApiError && error.status === status;

function errorText(error: unknown, t: LooseT) {
  if (isStatus(error, 403)) return t('dataTable.forbidden');
  return t('dataTable.failed', { message: describeApiError(error, t) });
}

/** The one table frame: filters, export, states, sortable headers, rows, total and paging. */
function TableView<T, F extends string>({
  columns,
  rowKey,
  rowProps,
  caption,
  filters,
  actions,
  exportName,
  testId = 'data-table',
  items,
  total,
  pending,
  fetching,
  error,
  onRetry,
  sort,
  onSort,
  paging,
  exportRows,
}: TableViewProps<T, F>) {
  const { t } = useBundleT(dataTableBundle);

  const exportCsv = async () => {
    const rows = await exportRows();
    const exported = columns.filter((c) => c.csv);
    const header = exported.map((c) => c.csvHeader ?? (typeof c.header === 'string' ? c.header : c.key));
    const csv = toCsv(
      header,
      rows.map((row) => exported.map((c) => c.csv!(row))),
    );
    saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `${exportName}.csv`);
  };

  const pages = paging ? Math.max(1, Math.ceil(total / paging.pageSize)) : 1;
  const pageSizes = paging ? [...new Set([...PAGE_SIZES, paging.pageSize])].sort((a, b) => a - b) : [];

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
      {error && !isSessionGone(error) ? (
        <Alert color="red" role="alert" data-testid={`${testId}-error`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorText(error, t)}</Text>
            {onRetry && !isStatus(error, 403) && (
              <Button size="xs" variant="light" onClick={onRetry}>
                {t('dataTable.retry')}
              </Button>
            )}
          </Stack>
        </Alert>
      ) : pending ? (
        <Group justify="center" p="lg" data-testid={`${testId}-loading`}>
          <Loader size="sm" aria-label={t('dataTable.loading')} />
        </Group>
      ) : (
        <>
          {/* Named by the caption: on a narrow screen the focused box scrolls with the arrow keys. */}
          <Table.ScrollContainer minWidth={600} {...(caption && { role: 'region', 'aria-label': caption })}>
            <Table striped highlightOnHover aria-busy={fetching || undefined}>
              {caption && <Table.Caption>{caption}</Table.Caption>}
              <Table.Thead>
                <Table.Tr>
                  {columns.map((column) => {
                    const active = column.sortField && sort?.field === column.sortField ? sort : null;
                    return (
                      <Table.Th
                        key={column.key}
                        aria-sort={active ? (active.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                      >
                        {column.sortField && onSort ? (
                          <UnstyledButton
                            fw={700}
                            fz="sm"
                            onClick={() => onSort(column.sortField!)}
                            title={
                              typeof column.header === 'string'
                                ? t('dataTable.sortBy', { column: column.header })
                                : undefined
                            }
                            data-testid={`${testId}-sort-${column.key}`}
                          >
                            {column.header}
                            {active ? (active.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                          </UnstyledButton>
                        ) : column.header === '' ? (
                          <ActionsLabel />
                        ) : (
                          column.header
                        )}
                      </Table.Th>
                    );
                  })}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {!items?.length ? (
                  <Table.Tr>
                    <Table.Td colSpan={columns.length}>
                      <Text c="dimmed" ta="center" py="md" data-testid={`${testId}-empty`}>
                        {t('dataTable.empty')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  items.map((row) => (
                    <Table.Tr key={rowKey(row)} data-testid={`${testId}-row`} {...rowProps?.(row)}>
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
              {t('dataTable.total', { count: total })}
            </Text>
            {paging && (
              <Group gap="sm">
                {pages > 1 && (
                  <Pagination
                    total={pages}
                    value={paging.page}
                    onChange={paging.setPage}
                    aria-label={t('dataTable.pagination')}
                    data-testid={`${testId}-pagination`}
                  />
                )}
                {total > pageSizes[0]! && (
                  <Select
                    size="xs"
                    w={90}
                    aria-label={t('dataTable.pageSize')}
                    data={pageSizes.map(String)}
                    value={String(paging.pageSize)}
                    onChange={(value) => value && paging.setPageSize(Number(value))}
                    allowDeselect={false}
                    data-testid={`${testId}-page-size`}
                  />
                )}
              </Group>
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}

/** A server-paged, sortable list with filters, empty/loading/error states and CSV export of every page. */
export function DataTable<T, F extends string = string, Filter extends object = Record<string, unknown>>({
  queryKey,
  fetchPage,
  filter,
  initialSort,
  pageSize: initialPageSize = 50,
  refreshInterval,
  ...frame
}: DataTableProps<T, F, Filter>) {
  const cleaned = cleanFilter(filter);
  const filterKey = JSON.stringify(cleaned ?? {});
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const [pageSize, setPageSize] = useState(initialPageSize);
  const [sort, setSort] = useState<SortState<F> | undefined>(initialSort);
  // A new filter starts again at page 1.
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const request: PageRequest<F, Filter> = { page, pageSize, sort, filter: cleaned };

  const query = useQuery({
    queryKey: [...queryKey, request],
    queryFn: ({ signal }) => fetchPage(request, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (refreshInterval && q.state.data ? refreshInterval(q.state.data.items) : false),
  });

  const toggleSort = (field: F) => {
    setSort((current) =>
      current?.field === field
        ? { field, dir: current.dir === 'asc' ? 'desc' : 'asc' }
        : { field, dir: 'asc' },
    );
    setPaging({ filterKey, page: 1 });
  };

  return (
    <TableView
      {...frame}
      items={query.data?.items}
      total={query.data?.total ?? 0}
      pending={query.isPending}
      fetching={query.isFetching}
      error={query.error}
      onRetry={() => void query.refetch()}
      sort={sort}
      onSort={toggleSort}
      paging={{
        page,
        pageSize,
        setPage: (next) => setPaging({ filterKey, page: next }),
        setPageSize: (size) => {
          setPageSize(size);
          setPaging({ filterKey, page: 1 });
        },
      }}
      exportRows={() => fetchAllPages(fetchPage, { sort, filter: cleaned })}
    />
  );
}

/** A list the page already holds (not paged by the server): every row, the same frame and export. */
export function RowsTable<T>({ rows, error, onRetry, ...frame }: RowsTableProps<T>) {
  return (
    <TableView
      {...frame}
      items={rows}
      total={rows?.length ?? 0}
      pending={rows === undefined && !error}
      fetching={false}
      error={error}
      onRetry={onRetry}
      exportRows={async () => rows ?? []}
    />
  );
}

import { Alert, Button, Group, Loader, Pagination, Select, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import type { CsvValue } from './csv';
import { downloadCsv } from './csv';
import { useKitT } from './kit-i18n';

export interface Column<Row, F extends string = string> {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** The value written to CSV; columns without it (actions) are not exported. */
  csv?: (row: Row) => CsvValue;
  /** Server sort field: the header becomes a sort button. */
  sortField?: F;
}

export interface ListTableProps<Row, F extends string> {
  columns: readonly Column<Row, F>[];
  rows: readonly Row[] | undefined;
  total?: number;
  rowKey: (row: Row) => string | number;
  isLoading: boolean;
  error: unknown;
  onRetry?: () => void;
  /** Server paging; without it every row is shown. */
  paging?: {
    page: number;
    pageSize: number;
    setPage: (page: number) => void;
    setPageSize: (n: number) => void;
  };
  sort?: { field: F; dir: 'asc' | 'desc' } | undefined;
  onSort?: (field: F) => void;
  csvName?: string;
  caption: string;
  rowProps?: (row: Row) => Record<string, unknown>;
  toolbar?: ReactNode;
  testId?: string;
}

const PAGE_SIZES = ['10', '20', '50', '100'];

/** A server-driven table: sortable headers, paging, loading / empty / error states, CSV of the view. */
export function ListTable<Row, F extends string>(props: ListTableProps<Row, F>) {
  const t = useKitT();
  const { columns, rows, total = rows?.length ?? 0, paging, sort, onSort, error } = props;
  const exportable = columns.filter((c) => c.csv);
  const pages = paging ? Math.max(1, Math.ceil(total / paging.pageSize)) : 1;

  const exportView = () =>
    downloadCsv(
      `${props.csvName ?? 'export'}.csv`,
      exportable.map((c) => c.header),
      (rows ?? []).map((row) => exportable.map((c) => c.csv!(row))),
    );

  let body: ReactNode;
  if (error && !rows) {
    body = null;
  } else if (props.isLoading && !rows) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns.length}>
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('loading')}</Text>
          </Group>
        </Table.Td>
      </Table.Tr>
    );
  } else if (!rows?.length) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns.length}>
          <Text c="dimmed" size="sm" data-testid="table-empty">
            {t('empty')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => (
      <Table.Tr key={props.rowKey(row)} {...props.rowProps?.(row)}>
        {columns.map((c) => (
          <Table.Td key={c.key}>{c.cell(row)}</Table.Td>
        ))}
      </Table.Tr>
    ));
  }

  return (
    <div data-testid={props.testId}>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Group gap="sm">{props.toolbar}</Group>
        <Group gap="sm">
          <Text size="sm" c="dimmed" data-testid="table-total">
            {t('total', { count: total })}
          </Text>
          <Button variant="default" size="xs" onClick={exportView} disabled={!rows?.length}>
            {t('exportCsv')}
          </Button>
        </Group>
      </Group>
      {error ? (
        <Alert color="red" mb="sm" role="alert" data-testid="table-error">
          <Group justify="space-between">
            <span>{t('error', { message: error instanceof Error ? error.message : String(error) })}</span>
            {props.onRetry && (
              <Button size="xs" variant="white" onClick={props.onRetry}>
                {t('retry')}
              </Button>
            )}
          </Group>
        </Alert>
      ) : null}
      <Table.ScrollContainer minWidth={600}>
        <Table striped highlightOnHover aria-busy={props.isLoading || undefined}>
          <Table.Caption>{props.caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => {
                const sorted = c.sortField && sort?.field === c.sortField ? sort.dir : null;
                return (
                  <Table.Th
                    key={c.key}
                    aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {c.sortField && onSort ? (
                      <UnstyledButton
                        fw={600}
                        fz="sm"
                        onClick={() => onSort(c.sortField!)}
                        aria-label={t('sortBy', { column: c.header })}
                        data-testid={`sort-${c.key}`}
                      >
                        {c.header} {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                      </UnstyledButton>
                    ) : (
                      c.header
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {paging && (
        <Group justify="space-between" mt="sm">
          <Pagination
            total={pages}
            value={paging.page}
            onChange={paging.setPage}
            size="sm"
            aria-label={t('pagination')}
          />
          <Select
            size="xs"
            w={100}
            aria-label={t('pageSize')}
            data={PAGE_SIZES}
            value={String(paging.pageSize)}
            onChange={(v) => v && paging.setPageSize(Number(v))}
            allowDeselect={false}
          />
        </Group>
      )}
    </div>
  );
}

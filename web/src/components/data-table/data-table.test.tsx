import { screen, render, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../test/test-app';
import { ApiError } from '../../lib/api-client';
import { createI18n } from '../../lib/i18n';
import { createQueryClient } from '../../lib/query-client';
import { DataTable, RowsTable, type Column } from './data-table';
import type { PageRequest } from './list-request';

interface Row {
  id: number;
  name: string;
}

const rows: Row[] = Array.from({ length: 1100 }, (_, i) => ({
  id: i + 1,
  name: i === 0 ? '=cmd|calc' : `Ученик ${i + 1}`,
}));

function fakeFetch() {
  return vi.fn(async (req: PageRequest) => {
    const search = typeof req.filter?.search === 'string' ? req.filter.search : '';
    let list = rows.filter((r) => r.name.includes(search));
    if (req.sort?.dir === 'desc') list = [...list].reverse();
    const start = (req.page - 1) * req.pageSize;
    return { items: list.slice(start, start + req.pageSize), total: list.length };
  });
}

const columns: Column<Row>[] = [
  { key: 'id', header: '№', render: (r) => r.id, csv: (r) => r.id },
  { key: 'name', header: 'Имя', sortField: 'name', render: (r) => r.name, csv: (r) => r.name },
];

function Harness({ fetchPage }: { fetchPage: ReturnType<typeof fakeFetch> }) {
  const [search, setSearch] = useState('');
  return (
    <>
      <input aria-label="search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      <DataTable
        queryKey={['test']}
        fetchPage={fetchPage}
        columns={columns}
        rowKey={(r) => r.id}
        filter={{ search }}
        pageSize={50}
        exportName="pupils"
        caption="Ученики"
        rowProps={(r) => (r.id === 1 ? { 'aria-label': 'первая строка' } : {})}
      />
    </>
  );
}

function renderTable(fetchPage: ReturnType<typeof fakeFetch>) {
  return render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      <Harness fetchPage={fetchPage} />
    </AppProviders>,
  );
}

const readBlob = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

let blobs: Blob[];
beforeEach(() => {
  blobs = [];
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        blobs.push(blob);
        return 'blob:fake';
      }),
      revokeObjectURL: vi.fn(),
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('DataTable', () => {
  it('pages, sorts and filters on the server', { timeout: 20_000 }, async () => {
    const fetchPage = fakeFetch();
    renderTable(fetchPage);
    expect(await screen.findAllByTestId('data-table-row')).toHaveLength(50);
    expect(screen.getByTestId('data-table-total')).toHaveTextContent('Всего: 1100');
    expect(fetchPage.mock.calls[0]![0]).toEqual({
      page: 1,
      pageSize: 50,
      sort: undefined,
      filter: undefined,
    });

    await userEvent.click(
      within(screen.getByTestId('data-table-pagination')).getByRole('button', { name: '2' }),
    );
    await waitFor(() => expect(fetchPage.mock.lastCall![0].page).toBe(2));
    expect(await screen.findByText('Ученик 51')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('data-table-sort-name'));
    await waitFor(() =>
      expect(fetchPage.mock.lastCall![0]).toMatchObject({ page: 1, sort: { field: 'name', dir: 'asc' } }),
    );
    await userEvent.click(screen.getByTestId('data-table-sort-name'));
    await waitFor(() => expect(fetchPage.mock.lastCall![0].sort).toEqual({ field: 'name', dir: 'desc' }));
    expect(screen.getByRole('columnheader', { name: /Имя/ })).toHaveAttribute('aria-sort', 'descending');

    await userEvent.click(screen.getByLabelText('search'));
    await userEvent.paste('Ученик 1099');
    await waitFor(() =>
      expect(fetchPage.mock.lastCall![0]).toMatchObject({ page: 1, filter: { search: 'Ученик 1099' } }),
    );
    expect(await screen.findByTestId('data-table-total')).toHaveTextContent('Всего: 1');
  });

  it('shows an empty state', async () => {
    const fetchPage = vi.fn(async () => ({ items: [], total: 0 }));
    renderTable(fetchPage as never);
    expect(await screen.findByTestId('data-table-empty')).toHaveTextContent('Ничего не найдено');
  });

  it('exports every page of the current filter, formula-safe', async () => {
    const fetchPage = fakeFetch();
    renderTable(fetchPage);
    await screen.findAllByTestId('data-table-row');
    await userEvent.click(screen.getByTestId('data-table-export'));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const exportCalls = fetchPage.mock.calls.filter(([req]) => req.pageSize === 500);
    expect(exportCalls.map(([req]) => req.page)).toEqual([1, 2, 3]);
    const text = await readBlob(blobs[0]!);
    const lines = text
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(1101);
    expect(lines[0]).toBe('№;Имя');
    expect(lines[1]).toBe("1;'=cmd|calc");
    expect(lines[1100]).toBe('1100;Ученик 1100');
  });

  it('shows a 403 inline instead of leaving the page', async () => {
    const fetchPage = vi.fn(async () => {
      throw new ApiError({ status: 403, code: 'forbidden', message: 'forbidden' });
    });
    renderTable(fetchPage as never);
    expect(await screen.findByTestId('data-table-error')).toHaveTextContent('Нет доступа к этим данным.');
  });

  it('names the table by its caption, passes row attributes and changes the page size', async () => {
    const fetchPage = fakeFetch();
    renderTable(fetchPage);
    expect(await screen.findByRole('table', { name: 'Ученики' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'первая строка' })).toBeInTheDocument();
    const size = screen.getByRole('combobox', { name: 'Строк на странице' });
    await userEvent.click(size);
    const listbox = await waitFor(() => document.getElementById(size.getAttribute('aria-controls') ?? '')!);
    await userEvent.click(await within(listbox).findByRole('option', { name: '100', hidden: true }));
    await waitFor(() => expect(fetchPage.mock.lastCall![0]).toMatchObject({ page: 1, pageSize: 100 }));
    expect(await screen.findAllByTestId('data-table-row')).toHaveLength(100);
  });
});

describe('RowsTable', () => {
  function renderRows(props: Partial<Parameters<typeof RowsTable<Row>>[0]>) {
    return render(
      <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
        <RowsTable columns={columns} rowKey={(r) => r.id} rows={undefined} testId="rows" {...props} />
      </AppProviders>,
    );
  }

  it('shows every row it holds and exports them, formula-safe', async () => {
    renderRows({ rows: rows.slice(0, 3), exportName: 'three' });
    expect(screen.getAllByTestId('rows-row')).toHaveLength(3);
    expect(screen.getByTestId('rows-total')).toHaveTextContent('Всего: 3');
    expect(screen.queryByTestId('rows-pagination')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('rows-export'));
    await waitFor(() => expect(blobs).toHaveLength(1));
    // FileReader drops the BOM.
    expect(await readBlob(blobs[0]!)).toBe("№;Имя\r\n1;'=cmd|calc\r\n2;Ученик 2\r\n3;Ученик 3\r\n");
  });

  it('shows loading, then a failure with a retry', async () => {
    const { rerender } = renderRows({});
    expect(screen.getByTestId('rows-loading')).toBeInTheDocument();
    const onRetry = vi.fn();
    rerender(
      <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
        <RowsTable
          columns={columns}
          rowKey={(r) => r.id}
          rows={undefined}
          testId="rows"
          error={new ApiError({ status: 500, code: 'internal_error', message: 'Сбой базы' })}
          onRetry={onRetry}
        />
      </AppProviders>,
    );
    expect(screen.getByTestId('rows-error')).toHaveTextContent(
      'Не удалось загрузить список: На сервере произошла ошибка',
    );
    expect(screen.getByTestId('rows-error')).not.toHaveTextContent('Сбой базы');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

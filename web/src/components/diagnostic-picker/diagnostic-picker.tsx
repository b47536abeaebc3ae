/**
 * A diagnostic chosen by its name or code from the caller's own list — the admin's every
 * diagnostic, a coordinator's those of their school — searched on the server, never by typing an
 * id. The chosen one keeps its label (an admin's link may name it by id: its card is read).
 */
import { Select, type OptionsFilter, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../lib/call';
import { useBundleT, type Bundle } from '../data-table/use-bundle-t';

export type DiagnosticPickerRole = 'admin' | 'coordinator';

const PICK_SIZE = 50;
const quiet = { suppressRedirect: true } as const;
const labelOf = (d: { code: string; name: string }) => `${d.name} (${d.code})`;
const byText = (text: string) => (text ? { filter: { search: text } } : {});
const newestFirst = { field: 'startsAt', dir: 'desc' } as const;

async function search(role: DiagnosticPickerRole, text: string, signal?: AbortSignal) {
  const body = { page: 1, pageSize: PICK_SIZE, sort: newestFirst, ...byText(text) };
  const options = { ...quiet, signal };
  const { items } =
    role === 'admin'
      ? await call('POST /api/admin/diagnostics/list', { body }, options)
      : await call('POST /api/coordinator/diagnostic/list', { body }, options);
  return items.map((d) => ({ value: String(d.id), label: labelOf(d) }));
}

/** The label of one diagnostic: the admin reads its card; a coordinator's list has no id filter. */
async function labelById(role: DiagnosticPickerRole, id: number, signal?: AbortSignal) {
  if (role === 'admin') {
    const d = await call('GET /api/admin/diagnostics/{id}', { params: { id } }, { ...quiet, signal });
    return labelOf(d);
  }
  const list = await call(
    'POST /api/coordinator/diagnostic/list',
    { body: { page: 1, pageSize: 500, sort: newestFirst } },
    { ...quiet, signal },
  );
  const d = list.items.find((item) => item.id === id);
  return d ? labelOf(d) : null;
}

/** The server already searched: show its answer as it is. */
const serverFiltered: OptionsFilter = ({ options }) => options;

export function DiagnosticPicker({
  role,
  value,
  onChange,
  ...rest
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  role: DiagnosticPickerRole;
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const { t } = useBundleT(pickerBundle);
  const [text, setText] = useState('');
  const [chosenLabel, setChosenLabel] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(text.trim(), 250);
  const named = useQuery({
    queryKey: ['diagnostic-picker', role, 'label', value],
    queryFn: ({ signal }) => labelById(role, value!, signal),
    enabled: value !== null && chosenLabel === null,
    staleTime: 60_000,
  });
  const label = value === null ? null : (chosenLabel ?? named.data ?? null);
  // While a diagnostic is shown, its label is the search text: do not search for it.
  const searched = label && debounced === label ? '' : debounced;
  const list = useQuery({
    queryKey: ['diagnostic-picker', role, 'search', searched],
    queryFn: ({ signal }) => search(role, searched, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = list.data ?? [];
  const data =
    value !== null && label
      ? [{ value: String(value), label }, ...options.filter((o) => o.value !== String(value))]
      : options;
  return (
    <Select
      searchable
      clearable
      filter={serverFiltered}
      nothingFoundMessage={list.isFetching ? t('diagnosticPicker.loading') : t('diagnosticPicker.notFound')}
      label={t('diagnosticPicker.label')}
      placeholder={t('diagnosticPicker.placeholder')}
      comboboxProps={{ withinPortal: true }}
      {...rest}
      data={data}
      value={value === null ? null : String(value)}
      onSearchChange={setText}
      onChange={(v, option) => {
        setChosenLabel(option?.label ?? null);
        onChange(v ? Number(v) : null);
      }}
    />
  );
}

export const pickerBundle: Bundle = {
  ru: {
    diagnosticPicker: {
      label: 'Диагностика',
      placeholder: 'Начните вводить название или код',
      notFound: 'Ничего не найдено',
      loading: 'Загрузка…',
    },
  },
  en: {
    diagnosticPicker: {
      label: 'Diagnostic',
      placeholder: 'Start typing its name or code',
      notFound: 'Nothing found',
      loading: 'Loading…',
    },
  },
};

/**
 * One record chosen by its name from a list the server searches — a diagnostic, a school, an ОО —
 * never by typing an id. Every feature's picker of that kind is this component with its own
 * search call (docs/ARCHITECTURE.md, web `components/`):
 * - the typed text is sent after a short pause, and the server's answer is shown as it is;
 * - while a record is chosen, its label is the search text, and it is not searched for again;
 * - the chosen record keeps its label while the search moves on (it stays first in the list);
 * - a record chosen elsewhere (a link's query string) is named by `labelOf`, when given;
 * - `options` replaces the search with a known list (a diagnostic's own schools), filtered here.
 */
import { Select, type OptionsFilter, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

export interface ServerOption {
  value: string;
  label: string;
}

export interface ServerSelectProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'onSearchChange' | 'filter'
> {
  value: number | null;
  onChange: (id: number | null, label: string | null) => void;
  /** Where the searches and the label are cached (a feature's query key prefix). */
  queryKey: readonly unknown[];
  /** The records matching the typed text ('' for the first page). */
  search: (text: string, signal: AbortSignal) => Promise<ServerOption[]>;
  /** The label of a record chosen elsewhere; without it, such a record shows once a search lists it. */
  labelOf?: (id: number, signal: AbortSignal) => Promise<string | null>;
  /** The current record's label when the caller knows it (a record being edited). */
  valueLabel?: string | null;
  /** A known list instead of the search (filtered as typed, nothing asked of the server). */
  options?: readonly ServerOption[] | null;
  /** Shown while the search runs and when it finds nothing. */
  loadingMessage?: string;
  notFoundMessage?: string;
}

/** The server already searched: show its answer as it is. */
const serverFiltered: OptionsFilter = ({ options }) => options;

/** The options plus the chosen one (whose label is known), first and without repeats. */
export const withChosen = (options: readonly ServerOption[], chosen: ServerOption | null): ServerOption[] =>
  chosen ? [chosen, ...options.filter((o) => o.value !== chosen.value)] : [...options];

export function ServerSelect({
  value,
  onChange,
  queryKey,
  search,
  labelOf,
  valueLabel = null,
  options: own = null,
  loadingMessage,
  notFoundMessage = '—',
  ...rest
}: ServerSelectProps) {
  const [text, setText] = useState('');
  // The label picked here belongs to the id picked with it: a value changed from outside is named anew.
  const [picked, setPicked] = useState<ServerOption | null>(null);
  const chosenLabel = (picked && picked.value === String(value) ? picked.label : null) ?? valueLabel;
  const [debounced] = useDebouncedValue(text.trim(), 250);
  const listed = own?.find((o) => o.value === String(value))?.label ?? null;
  const named = useQuery({
    queryKey: [...queryKey, 'label', value],
    queryFn: ({ signal }) => labelOf!(value!, signal),
    enabled: Boolean(labelOf) && value !== null && chosenLabel === null && listed === null,
    staleTime: 60_000,
  });
  const label = value === null ? null : (chosenLabel ?? listed ?? named.data ?? null);
  const searched = label && debounced === label ? '' : debounced;
  const found = useQuery({
    queryKey: [...queryKey, 'search', searched],
    queryFn: ({ signal }) => search(searched, signal),
    enabled: own === null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const chosen = value !== null && label ? { value: String(value), label } : null;
  return (
    <Select
      searchable
      clearable
      nothingFoundMessage={found.isFetching && loadingMessage ? loadingMessage : notFoundMessage}
      comboboxProps={{ withinPortal: true }}
      {...rest}
      filter={own ? undefined : serverFiltered}
      data={withChosen(own ?? found.data ?? [], chosen)}
      value={value === null ? null : String(value)}
      onSearchChange={setText}
      onChange={(v, option) => {
        setPicked(v && option ? { value: v, label: option.label } : null);
        onChange(v ? Number(v) : null, option?.label ?? null);
      }}
    />
  );
}

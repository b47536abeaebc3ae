/**
 * Pickers of the organisation pages: an ОО, a school or a diagnostic found by server search, a class
 * of a school.
 */
import { MultiSelect, Select, type OptionsFilter, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  getAdminDiagnostic,
  getSchool,
  listAdminDiagnostics,
  listAreas,
  listClasses,
  listOo,
  listSchools,
  orgKeys,
} from '../api/admin-org-api';
import { useAdminT } from '../i18n';

const PICK_SIZE = 50;
/** The server already searched: show its answer as it is. */
const serverFiltered: OptionsFilter = ({ options }) => options;

type Option = { value: string; label: string };
type RemoteKind = 'oo' | 'school';

const schoolLabel = (s: { name: string; code: string | null }) => (s.code ? `${s.name} (${s.code})` : s.name);

/** Options matching the typed text, fetched from the server after a short pause in typing. */
function useRemoteOptions(kind: RemoteKind, search: string): Option[] {
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const body = { page: 1, pageSize: PICK_SIZE, ...(debounced ? { filter: { search: debounced } } : {}) };
  const query = useQuery({
    queryKey: [...(kind === 'oo' ? orgKeys.oo : orgKeys.schools), 'pick', debounced],
    queryFn: async (): Promise<Option[]> =>
      kind === 'oo'
        ? (await listOo(body)).items.map((o) => ({ value: String(o.id), label: o.name }))
        : (await listSchools(body)).items.map((s) => ({ value: String(s.id), label: schoolLabel(s) })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  return query.data ?? [];
}

/** The fetched options plus the chosen ones (whose labels the caller knows), without repeats. */
const withChosen = (options: Option[], chosen: Option[]) => [
  ...chosen,
  ...options.filter((o) => !chosen.some((c) => c.value === o.value)),
];

interface RemoteSelectProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  kind: RemoteKind;
  value: number | null;
  /** The label of the current value, when known (editing a record). */
  valueLabel?: string | null;
  onChange: (id: number | null, label: string | null) => void;
}

/** One ОО or school, searched on the server by name (and code). */
export function RemoteSelect({ kind, value, valueLabel, onChange, ...rest }: RemoteSelectProps) {
  const [search, setSearch] = useState('');
  const [label, setLabel] = useState<string | null>(valueLabel ?? null);
  const options = useRemoteOptions(kind, search);
  // A school chosen elsewhere (a link's query string) is named by asking for it.
  const named = useQuery({
    queryKey: orgKeys.school(value ?? 0),
    queryFn: () => getSchool(value!),
    enabled: kind === 'school' && value !== null && !label,
  });
  const shown = label ?? (named.data ? schoolLabel(named.data) : null);
  const chosen = value !== null && shown ? [{ value: String(value), label: shown }] : [];
  return (
    <Select
      searchable
      clearable
      filter={serverFiltered}
      nothingFoundMessage="—"
      {...rest}
      data={withChosen(options, chosen)}
      value={value === null ? null : String(value)}
      onSearchChange={setSearch}
      onChange={(v, option) => {
        setLabel(option?.label ?? null);
        onChange(v ? Number(v) : null, option?.label ?? null);
      }}
    />
  );
}

const diagnosticLabel = (d: { name: string; code: string }) => `${d.name} (${d.code})`;

/** One diagnostic, searched on the server by name or code (newest first). */
export function DiagnosticSelect({
  value,
  onChange,
  ...rest
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [label, setLabel] = useState<string | null>(null);
  const options = useQuery({
    queryKey: [...orgKeys.diagnostics, 'pick', debounced],
    queryFn: async (): Promise<Option[]> =>
      (
        await listAdminDiagnostics({
          page: 1,
          pageSize: PICK_SIZE,
          sort: { field: 'startsAt', dir: 'desc' },
          ...(debounced ? { filter: { search: debounced } } : {}),
        })
      ).items.map((d) => ({ value: String(d.id), label: diagnosticLabel(d) })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  // A diagnostic chosen elsewhere (a link's query string) is named by asking for it.
  const named = useQuery({
    queryKey: orgKeys.diagnostic(value ?? 0),
    queryFn: () => getAdminDiagnostic(value!),
    enabled: value !== null && !label,
  });
  const shown = label ?? (named.data ? diagnosticLabel(named.data) : null);
  const chosen = value !== null && shown ? [{ value: String(value), label: shown }] : [];
  return (
    <Select
      searchable
      clearable
      filter={serverFiltered}
      nothingFoundMessage="—"
      {...rest}
      data={withChosen(options.data ?? [], chosen)}
      value={value === null ? null : String(value)}
      onSearchChange={setSearch}
      onChange={(v, option) => {
        setLabel(option?.label ?? null);
        onChange(v ? Number(v) : null);
      }}
    />
  );
}

/** Several schools, searched on the server. */
export function SchoolsMultiSelect({
  value,
  onChange,
  label,
  description,
  error,
}: {
  value: Option[];
  onChange: (value: Option[]) => void;
  label: string;
  description?: string;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const options = useRemoteOptions('school', search);
  const data = withChosen(options, value);
  return (
    <MultiSelect
      searchable
      clearable
      filter={serverFiltered}
      label={label}
      description={description}
      error={error}
      aria-invalid={Boolean(error) || undefined}
      data={data}
      value={value.map((o) => o.value)}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(ids) => onChange(ids.map((id) => data.find((o) => o.value === id)!))}
      data-testid="school-multiselect"
    />
  );
}

/** A class of one school (disabled until the school is known). */
export function ClassSelect({
  schoolId,
  value,
  onChange,
  ...rest
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  schoolId: number | null;
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const t = useAdminT();
  const classes = useQuery({
    queryKey: orgKeys.classes(schoolId ?? 0),
    queryFn: () => listClasses(schoolId!),
    enabled: schoolId !== null,
  });
  return (
    <Select
      searchable
      {...rest}
      disabled={schoolId === null || rest.disabled}
      placeholder={schoolId === null ? t('students.chooseSchoolFirst') : rest.placeholder}
      data={(classes.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
    />
  );
}

/** Grades 0 (preschool) to 11 as options. */
export function useParallelOptions(): Option[] {
  const t = useAdminT();
  return Array.from({ length: 12 }, (_, n) => ({
    value: String(n),
    label: n === 0 ? t('org.preschool') : String(n),
  }));
}

/** An area of the region (docs/ugnik.md), picked by name from the admin's list; clearable. */
export function AreaSelect({
  value,
  onChange,
  ...props
}: Omit<SelectProps, 'value' | 'onChange' | 'data'> & {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const t = useAdminT();
  const areas = useQuery({ queryKey: orgKeys.areas, queryFn: listAreas, staleTime: 30_000 });
  return (
    <Select
      label={t('org.area')}
      placeholder={t('org.areaPick')}
      searchable
      clearable
      nothingFoundMessage={t('org.nothingFound')}
      data={(areas.data?.items ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
      data-testid="area-select"
      {...props}
    />
  );
}

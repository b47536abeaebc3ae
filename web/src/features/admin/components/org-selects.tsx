/**
 * Pickers of the organisation pages: an ОО, a school or a diagnostic found by server search, a class
 * of a school.
 */
import { MultiSelect, Select, type OptionsFilter, type SelectProps } from '@mantine/core';
import { ServerSelect, type ServerSelectProps } from '../../../components/server-select/server-select';
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
  const query = useQuery({
    queryKey: [...keyOf(kind), 'pick', debounced],
    queryFn: () => searchOrg(kind, debounced),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  return query.data ?? [];
}

const keyOf = (kind: RemoteKind) => (kind === 'oo' ? orgKeys.oo : orgKeys.schools);

/** The first page of ОО or schools matching the text. */
async function searchOrg(kind: RemoteKind, text: string): Promise<Option[]> {
  const body = { page: 1, pageSize: PICK_SIZE, ...(text ? { filter: { search: text } } : {}) };
  return kind === 'oo'
    ? (await listOo(body)).items.map((o) => ({ value: String(o.id), label: o.name }))
    : (await listSchools(body)).items.map((s) => ({ value: String(s.id), label: schoolLabel(s) }));
}

/** The fetched options plus the chosen ones (whose labels the caller knows), without repeats. */
const withChosenOnes = (options: Option[], chosen: Option[]) => [
  ...chosen,
  ...options.filter((o) => !chosen.some((c) => c.value === o.value)),
];

interface RemoteSelectProps extends Omit<ServerSelectProps, 'queryKey' | 'search' | 'labelOf'> {
  kind: RemoteKind;
}

/** One ОО or school, searched on the server by name (and code). */
export function RemoteSelect({ kind, ...rest }: RemoteSelectProps) {
  return (
    <ServerSelect
      {...rest}
      queryKey={[...keyOf(kind), 'pick']}
      search={(text) => searchOrg(kind, text)}
      // A school chosen elsewhere (a link's query string) is named by asking for it.
      labelOf={kind === 'school' ? async (id) => schoolLabel(await getSchool(id)) : undefined}
    />
  );
}

const diagnosticLabel = (d: { name: string; code: string }) => `${d.name} (${d.code})`;

/** One diagnostic, searched on the server by name or code (newest first). */
export function DiagnosticSelect({
  onChange,
  ...rest
}: Omit<ServerSelectProps, 'queryKey' | 'search' | 'labelOf' | 'onChange'> & {
  onChange: (id: number | null) => void;
}) {
  return (
    <ServerSelect
      {...rest}
      onChange={(id) => onChange(id)}
      queryKey={[...orgKeys.diagnostics, 'pick']}
      search={async (text) =>
        (
          await listAdminDiagnostics({
            page: 1,
            pageSize: PICK_SIZE,
            sort: { field: 'startsAt', dir: 'desc' },
            ...(text ? { filter: { search: text } } : {}),
          })
        ).items.map((d) => ({ value: String(d.id), label: diagnosticLabel(d) }))
      }
      // A diagnostic chosen elsewhere (a link's query string) is named by asking for it.
      labelOf={async (id) => diagnosticLabel(await getAdminDiagnostic(id))}
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
  const data = withChosenOnes(options, value);
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

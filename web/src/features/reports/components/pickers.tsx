/**
 * The report filters' searchable pickers: a diagnostic, a school (searched on the server, or those
 * of the chosen diagnostic), a class of the school, a subject test, a specification — each chosen
 * by its name from the lists of the caller's role, never by typing an id.
 */
import { Select, type SelectProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ServerSelect } from '../../../components/server-select/server-select';
import {
  adminSchool,
  diagnosticDetail,
  listBuildings,
  listClasses,
  listSpecifications,
  listSubjectTests,
  searchDiagnostics,
  searchSchools,
  type DiagnosticDetail,
  type Named,
  type PickerRole,
} from '../api/pickers';
import { reportKeys } from '../api/reports';
import { useReportsT } from '../locales';

type Option = { value: string; label: string };
type BaseProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: number | null;
  onChange: (id: number | null) => void;
};

const toOptions = (items: readonly Named[]): Option[] =>
  items.map((item) => ({ value: String(item.id), label: item.name }));

/** The chosen diagnostic with its subject tests (and schools for the ugnik and the admin). */
export function useDiagnosticDetail(role: PickerRole, id: number | null) {
  return useQuery({
    queryKey: reportKeys.pick(role, 'diagnostic', id),
    queryFn: ({ signal }) => diagnosticDetail(role, id!, signal),
    enabled: id !== null,
    staleTime: 60_000,
  });
}

function IdSelect({ value, onChange, options, ...rest }: BaseProps & { options: Option[] }) {
  const { t } = useReportsT();
  return (
    <Select
      searchable
      clearable
      nothingFoundMessage={t('reports.filters.notFound')}
      comboboxProps={{ withinPortal: true }}
      {...rest}
      data={options}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
    />
  );
}

/** A diagnostic of the role's list, searched on the server by name or code. */
export function DiagnosticPicker({ role, value, onChange, ...rest }: BaseProps & { role: PickerRole }) {
  const { t } = useReportsT();
  const detail = useDiagnosticDetail(role, value);
  return (
    <ServerSelect
      loadingMessage={t('reports.filters.loading')}
      notFoundMessage={t('reports.filters.notFound')}
      label={t('reports.filters.diagnostic')}
      placeholder={t('reports.filters.diagnosticPlaceholder')}
      {...rest}
      value={value}
      valueLabel={detail.data?.label ?? null}
      onChange={(id) => onChange(id)}
      queryKey={reportKeys.pick(role, 'diagnostics')}
      search={async (text, signal) =>
        (await searchDiagnostics(role, text, signal)).map((d) => ({ value: String(d.id), label: d.label }))
      }
    />
  );
}

/**
 * A school: those of the chosen diagnostic when it names them, else searched on the server
 * (ugnik, admin). The label of a school chosen earlier is kept while the search moves on.
 */
export function SchoolPicker({
  role,
  diagnostic,
  onChange,
  ...rest
}: BaseProps & { role: 'ugnik' | 'admin'; diagnostic: DiagnosticDetail | null | undefined }) {
  const { t } = useReportsT();
  const own = diagnostic?.schools ?? null;
  return (
    <ServerSelect
      notFoundMessage={t('reports.filters.notFound')}
      label={t('reports.filters.school')}
      placeholder={t('reports.filters.schoolPlaceholder')}
      {...rest}
      onChange={(id) => onChange(id)}
      options={own ? toOptions(own) : null}
      queryKey={reportKeys.pick(role, 'schools')}
      search={async (text, signal) => toOptions(await searchSchools(role, text, signal))}
      // A school chosen in a link (the admin can ask for it by id).
      labelOf={role === 'admin' ? async (id, signal) => (await adminSchool(id, signal)).name : undefined}
    />
  );
}

/** A class: of the chosen school (ugnik, admin), or one of the school staff's own. */
export function ClassPicker({
  role,
  schoolId,
  ...props
}: BaseProps & { role: PickerRole; schoolId: number | null }) {
  const { t } = useReportsT();
  const needsSchool = role === 'ugnik' || role === 'admin';
  const classes = useQuery({
    queryKey: reportKeys.pick(role, 'classes', needsSchool ? schoolId : null),
    queryFn: ({ signal }) => listClasses(role, schoolId, signal),
    enabled: !needsSchool || schoolId !== null,
    staleTime: 60_000,
  });
  const waiting = needsSchool && schoolId === null;
  return (
    <IdSelect
      label={t('reports.filters.class')}
      {...props}
      placeholder={waiting ? t('reports.filters.chooseSchoolFirst') : t('reports.filters.classPlaceholder')}
      disabled={waiting || props.disabled}
      options={toOptions(classes.data ?? [])}
    />
  );
}

/** The organizator's buildings. */
export function BuildingPicker(props: BaseProps) {
  const { t } = useReportsT();
  const buildings = useQuery({
    queryKey: reportKeys.pick('organizator', 'buildings'),
    queryFn: ({ signal }) => listBuildings(signal),
    staleTime: 60_000,
  });
  return (
    <IdSelect
      label={t('reports.filters.building')}
      placeholder={t('reports.filters.buildingPlaceholder')}
      {...props}
      options={toOptions(buildings.data ?? [])}
    />
  );
}

/** A subject test: of the chosen diagnostic, else any the catalog offers staff. */
export function SubjectTestPicker({
  diagnostic,
  withCatalog = true,
  ...props
}: BaseProps & { diagnostic: DiagnosticDetail | null | undefined; withCatalog?: boolean }) {
  const { t } = useReportsT();
  const own = diagnostic?.subjectTests ?? null;
  const catalog = useQuery({
    queryKey: reportKeys.pick('staff', 'subjectTests'),
    queryFn: ({ signal }) => listSubjectTests(signal),
    enabled: own === null && withCatalog,
    staleTime: 5 * 60_000,
  });
  return (
    <IdSelect
      label={t('reports.filters.subjectTest')}
      placeholder={t('reports.filters.subjectTestPlaceholder')}
      {...props}
      options={toOptions(own ?? catalog.data ?? [])}
    />
  );
}

export function SpecificationPicker(props: BaseProps) {
  const { t } = useReportsT();
  const specs = useQuery({
    queryKey: reportKeys.pick('staff', 'specifications'),
    queryFn: ({ signal }) => listSpecifications(signal),
    staleTime: 5 * 60_000,
  });
  return (
    <IdSelect
      label={t('reports.specification.spec')}
      placeholder={t('reports.specification.specPlaceholder')}
      {...props}
      options={toOptions(specs.data ?? [])}
    />
  );
}

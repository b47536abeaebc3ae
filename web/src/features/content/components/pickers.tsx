/**
 * The content pages' searchable pickers: a subject, an exam of a subject, a test group, a
 * specification, an element of a specification, and a task of a subject's pool (searched on the
 * server). Staff choose records by their names, never by typing ids.
 */
import { Select, type OptionsFilter, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { subjectExamsQuery, subjectsQuery } from '../api/subjects';
import { specificationQuery, specificationsQuery } from '../api/specifications';
import { listTasks, type TaskListItem } from '../api/tasks';
import { testGroupsQuery } from '../api/test-groups';
import { contentKeys } from '../api/shared';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';

type Option = { value: string; label: string };

interface IdSelectProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  value: number | null;
  onChange: (id: number | null) => void;
}

/** A Select over ids: the value travels as text inside, as a number outside. */
function IdSelect({ value, onChange, options, ...rest }: IdSelectProps & { options: Option[] }) {
  const t = useContentT();
  return (
    <Select
      searchable
      nothingFoundMessage={t('common.notFound')}
      {...rest}
      data={options}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
    />
  );
}

export function SubjectSelect(props: IdSelectProps) {
  const subjects = useQuery(subjectsQuery());
  const options = (subjects.data ?? []).map((s) => ({
    value: String(s.id),
    label: s.code ? `${s.name} (${s.code})` : s.name,
  }));
  return <IdSelect {...props} options={options} />;
}

/** An exam of one subject, named by its kind (disabled until the subject is known). */
export function SubjectExamSelect({ subjectId, ...props }: IdSelectProps & { subjectId: number | null }) {
  const labels = useLabels();
  const exams = useQuery({ ...subjectExamsQuery(subjectId ?? 0), enabled: subjectId !== null });
  const options = (subjectId === null ? [] : (exams.data ?? [])).map((e) => ({
    value: String(e.id),
    label:
      e.name && e.name !== labels.examKind(e.kind)
        ? `${labels.examKind(e.kind)}: ${e.name}`
        : labels.examKind(e.kind),
  }));
  return <IdSelect {...props} disabled={props.disabled || subjectId === null} options={options} />;
}

export function TestGroupSelect(props: IdSelectProps) {
  const groups = useQuery(testGroupsQuery());
  const options = (groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }));
  return <IdSelect {...props} options={options} />;
}

/** Specifications of a subject and those of no subject (all of them without a subject). */
export function SpecificationSelect({ subjectId, ...props }: IdSelectProps & { subjectId: number | null }) {
  const specs = useQuery(specificationsQuery());
  const options = (specs.data ?? [])
    .filter((s) => subjectId === null || s.subjectId === null || s.subjectId === subjectId)
    .map((s) => ({ value: String(s.id), label: s.name }));
  return <IdSelect {...props} options={options} />;
}

/** An element of a specification, indented by its depth, named by code and name. */
export function ElementSelect({
  specificationId,
  exclude,
  ...props
}: IdSelectProps & { specificationId: number; exclude?: ReadonlySet<number> }) {
  const spec = useQuery(specificationQuery(specificationId));
  const options = (spec.data?.elements ?? [])
    .filter((e) => !exclude?.has(e.id))
    .map((e) => ({ value: String(e.id), label: `${'  '.repeat(e.depth)}${e.code} ${e.name}` }));
  return <IdSelect {...props} options={options} />;
}

/** The server already searched: show its answer as it is. */
const serverFiltered: OptionsFilter = ({ options }) => options;
const PICK_SIZE = 30;

export const taskLabel = (task: Pick<TaskListItem, 'id' | 'title' | 'text'>) =>
  `№ ${task.id} · ${task.title || task.text.slice(0, 80) || '—'}`;

/**
 * A task of a subject's pool, searched on the server by title, text or source id. Picking one
 * hands it over and empties the field for the next.
 */
export function TaskPicker({
  subjectId,
  onPick,
  exclude,
  ...rest
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  subjectId: number;
  onPick: (task: TaskListItem) => void;
  exclude?: ReadonlySet<number>;
}) {
  const t = useContentT();
  const labels = useLabels();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const query = useQuery({
    queryKey: [...contentKeys.tasks, 'pick', subjectId, debounced],
    queryFn: ({ signal }) =>
      listTasks(
        {
          page: 1,
          pageSize: PICK_SIZE,
          sort: { field: 'id', dir: 'asc' },
          filter: { subjectId, ...(debounced ? { search: debounced } : {}) },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const items = (query.data?.items ?? []).filter((task) => !exclude?.has(task.id));
  return (
    <Select
      searchable
      clearable
      filter={serverFiltered}
      nothingFoundMessage={t('common.notFound')}
      {...rest}
      data={items.map((task) => ({
        value: String(task.id),
        label: `${taskLabel(task)} (${labels.answerType(task.answerType)}, ${task.maxScore})`,
      }))}
      value={null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(value) => {
        const task = items.find((i) => String(i.id) === value);
        if (task) {
          onPick(task);
          setSearch('');
        }
      }}
    />
  );
}

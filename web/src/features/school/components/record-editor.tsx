/**
 * The frame of the coordinator's editable lists (organizators, staff tests): a searchable table
 * with the staff-training report and an "add" button, a modal that creates or edits one row, and
 * the form inside it (its values, the position select, the error alert and the save button).
 */
import { Alert, Button, Group, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { DataTable, type Column, type DataTableProps } from '../../../components/data-table/data-table';
import { useDownload } from '../../../components/data-table/use-download';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { useApiForm } from '../../../lib/use-api-form';
import { schoolKeys } from '../api/shared';
import { listPositions, workerTestReportPath } from '../api/worker-tests';
import { useCoordinatorT } from '../locales';

/** The table of a record list: its own list call, searched by `search`. */
type RecordTableProps<T, F extends string> = Omit<
  DataTableProps<T, F, { search?: string }>,
  'columns' | 'filter' | 'filters' | 'actions'
>;

interface RecordListPageProps<T, F extends string> extends RecordTableProps<T, F> {
  title: string;
  titleTestId: string;
  /** The table's columns; `edit` opens the modal on a row. */
  columns: (edit: (row: T) => void) => Column<T, F>[];
  reportLabel: string;
  addLabel: string;
  addTestId?: string;
  newTitle: string;
  editTitle: string;
  /** The modal's form: `row` null creates; call `saved` after a save (closes, reloads the list). */
  form: (row: T | null, saved: () => void) => ReactNode;
  /** The page's other dialogs. */
  children?: ReactNode;
}

export function RecordListPage<T, F extends string>({
  title,
  titleTestId,
  columns,
  reportLabel,
  addLabel,
  addTestId,
  newTitle,
  editTitle,
  form,
  children,
  ...table
}: RecordListPageProps<T, F>) {
  const { t } = useCoordinatorT();
  const queryClient = useQueryClient();
  const download = useDownload();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<T | 'new' | null>(null);

  const saved = () => {
    setEditing(null);
    void queryClient.invalidateQueries({ queryKey: table.queryKey });
  };

  return (
    <Stack gap="lg">
      <PageTitle data-testid={titleTestId}>{title}</PageTitle>
      <DataTable
        {...table}
        columns={columns(setEditing)}
        filter={{ search }}
        filters={
          <TextInput
            label={t('staff.common.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
        }
        actions={
          <>
            <LoadingButton
              variant="default"
              onClick={() => download(workerTestReportPath(), undefined, 'worker-tests.xlsx')}
            >
              {reportLabel}
            </LoadingButton>
            <Button onClick={() => setEditing('new')} data-testid={addTestId}>
              {addLabel}
            </Button>
          </>
        }
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? newTitle : editTitle}
      >
        {editing !== null && form(editing === 'new' ? null : editing, saved)}
      </Modal>
      {children}
    </Stack>
  );
}

/** A record form's state: `useApiForm` plus the typed values; setting a field clears its error. */
export function useRecordForm<V extends Record<string, unknown>>(initial: V) {
  const api = useApiForm();
  const [values, setValues] = useState(initial);
  const { clearFieldError } = api;
  const set = <K extends keyof V & string>(field: K, value: V[K]) => {
    setValues((cur) => ({ ...cur, [field]: value }));
    clearFieldError(field);
  };
  return { ...api, values, set };
}

/** The form around a record's fields: `testId`-form, the error alert and the `testId`-save button. */
export function RecordForm({
  form: { attachForm, formError, isLoading },
  testId,
  onSubmit,
  children,
}: {
  form: Pick<ReturnType<typeof useApiForm>, 'attachForm' | 'formError' | 'isLoading'>;
  testId: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useCoordinatorT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form ref={attachForm} onSubmit={submit} noValidate data-testid={`${testId}-form`}>
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        {children}
        <Group justify="flex-end">
          <LoadingButton type="submit" loading={isLoading} data-testid={`${testId}-save`}>
            {t('staff.common.save')}
          </LoadingButton>
        </Group>
      </Stack>
    </form>
  );
}

/** A worker position (`''` for none), from the positions list. */
export function PositionSelect({
  label,
  noneLabel,
  value,
  onChange,
  error,
}: {
  label: string;
  noneLabel: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const positions = useQuery({
    queryKey: schoolKeys.positions,
    queryFn: ({ signal }) => listPositions(signal),
  });
  return (
    <NativeSelect
      label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={[
        { value: '', label: noneLabel },
        ...(positions.data?.items ?? []).map((p) => ({ value: String(p.id), label: p.name })),
      ]}
      error={error}
    />
  );
}

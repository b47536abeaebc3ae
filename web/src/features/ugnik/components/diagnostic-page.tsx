import type {
  ParticipantTestListItem,
  ParticipantTestSortField,
  UgnikDiagnostic,
  UgnikStudent,
  UgnikSurnameRow,
} from '@attesta/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  MultiSelect,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { LoadingButton } from '../../../components/ui/loading-button';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { PageTitle } from '../../../components/ui/page-title';
import type { QueryValue } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { useApiForm } from '../../../lib/use-api-form';
import { ugnikParticipantSaveBodySchema } from '@attesta/contract';
import {
  deleteParticipant,
  getDiagnostic,
  getSurnames,
  listClasses,
  listParticipants,
  listStudents,
  participantCodesFile,
  saveParticipants,
  surnamesFile,
  ugnikKeys,
  getExpertCoverage,
} from '../api/ugnik-api';
import { ExpertCoverageAlert } from '../../../components/expert-coverage';
import { useUgnikT } from '../i18n';
import { windowText } from './diagnostics-page';
import { downloadFile } from '../../../components/data-table/download';
import { DataTable, RowsTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { fullName, num, PARTICIPANT_STATUS_COLOR, plainDate } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';

/** A participant test's status in words (the staff work places' labels), never the stored value. */
function useStatusLabel() {
  const { t } = useBundleT(staffBundle);
  return (status: string) => t(`staff.participants.status_.${status}`);
}

function ParticipantsTab({ diagnostic }: { diagnostic: UgnikDiagnostic }) {
  const t = useUgnikT();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useFilter<{ diagnosticId: number; search?: string; subjectTestId?: number }>({
    diagnosticId: diagnostic.id,
  });
  const [deleting, setDeleting] = useState<ParticipantTestListItem | null>(null);
  const statusLabel = useStatusLabel();
  const remove = useMutation({
    mutationFn: deleteParticipant,
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('detail.participantDeleted') });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ugnikKeys.participants }),
        queryClient.invalidateQueries({ queryKey: ugnikKeys.diagnostics }),
      ]);
    },
  });
  const name = (p: ParticipantTestListItem) => p.participantName ?? t('detail.impersonal');
  const columns: Column<ParticipantTestListItem, ParticipantTestSortField>[] = [
    { key: 'name', header: t('detail.participant'), render: name, csv: name, sortField: 'participantName' },
    {
      key: 'school',
      header: t('detail.school'),
      render: (p) => p.schoolName ?? '—',
      csv: (p) => p.schoolName,
      sortField: 'schoolName',
    },
    {
      key: 'class',
      header: t('detail.class'),
      render: (p) => p.className ?? '—',
      csv: (p) => p.className,
      sortField: 'className',
    },
    {
      key: 'test',
      header: t('detail.subjectTest'),
      render: (p) => p.subjectTestName,
      csv: (p) => p.subjectTestName,
    },
    {
      key: 'date',
      header: t('detail.testDate'),
      render: (p) => plainDate(p.testDate),
      csv: (p) => plainDate(p.testDate),
      sortField: 'testDate',
    },
    {
      key: 'status',
      header: t('detail.status'),
      render: (p) => (
        <Badge
          variant="light"
          color={PARTICIPANT_STATUS_COLOR[p.status] ?? 'gray'}
          data-testid={`pt-status-${p.id}`}
        >
          {statusLabel(p.status)}
        </Badge>
      ),
      csv: (p) => statusLabel(p.status),
      sortField: 'status',
    },
    {
      key: 'code',
      header: t('detail.activationCode'),
      render: (p) => p.activationCode,
      csv: (p) => p.activationCode,
    },
    {
      key: 'reg',
      header: t('detail.registrationCode'),
      render: (p) => p.registrationCode,
      csv: (p) => p.registrationCode,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (p) => (
        <Button size="compact-xs" variant="light" color="red" onClick={() => setDeleting(p)}>
          {t('common.delete')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <DataTable
        caption={t('detail.participantsTab')}
        queryKey={ugnikKeys.participants}
        fetchPage={listParticipants}
        filter={filter}
        initialSort={{ field: 'participantName', dir: 'asc' }}
        pageSize={20}
        filters={
          <>
            <TextInput
              aria-label={t('common.search')}
              placeholder={t('common.search')}
              value={filter.search ?? ''}
              onChange={(e) => setFilter({ search: e.currentTarget.value })}
            />
            <Select
              aria-label={t('detail.subjectTest')}
              placeholder={t('detail.subjectTest')}
              clearable
              data={diagnostic.subjectTests.map((s) => ({ value: String(s.id), label: s.name }))}
              value={filter.subjectTestId ? String(filter.subjectTestId) : null}
              onChange={(v) => setFilter({ subjectTestId: v ? Number(v) : undefined })}
            />
          </>
        }
        columns={columns}
        rowKey={(p) => p.id}
        exportName={`participants-${diagnostic.code}`}
        testId="participants-table"
      />
      {deleting && (
        <ConfirmDelete
          title={t('common.confirmTitle')}
          question={t('detail.deleteParticipantConfirm', { name: name(deleting) })}
          confirmLabel={t('common.delete')}
          cancelLabel={t('common.cancel')}
          conflicts={{ has_exam_work: t('detail.hasExamWork') }}
          onConfirm={() => remove.mutateAsync(deleting.id)}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}

type StudentOption = { value: string; label: string };
const studentLabel = (s: UgnikStudent) =>
  `${[s.surname, s.name, s.patronymic].filter(Boolean).join(' ')} (${s.className ?? s.schoolName})`;

/**
 * Students chosen by name: the diagnostic's students searched on the server, narrowed by the school
 * and class chosen above; a chosen class can be taken whole.
 */
function StudentPicker({
  diagnosticId,
  schoolId,
  classId,
  value,
  onChange,
  error,
}: {
  diagnosticId: number;
  schoolId: string | null;
  classId: string | null;
  value: StudentOption[];
  onChange: (value: StudentOption[]) => void;
  error?: string | undefined;
}) {
  const t = useUgnikT();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const students = useQuery({
    queryKey: [...ugnikKeys.reference, 'students', diagnosticId, schoolId, classId, debounced],
    queryFn: () =>
      listStudents({
        page: 1,
        pageSize: classId ? 500 : 50,
        filter: {
          diagnosticId,
          ...(schoolId ? { schoolId: Number(schoolId) } : {}),
          ...(classId ? { classId: Number(classId) } : {}),
          ...(debounced ? { search: debounced } : {}),
        },
      }),
    placeholderData: keepPreviousData,
  });
  const found = (students.data?.items ?? []).map((s) => ({ value: String(s.id), label: studentLabel(s) }));
  const data = [...value, ...found.filter((o) => !value.some((v) => v.value === o.value))];
  return (
    <Group align="flex-end" wrap="wrap">
      <MultiSelect
        label={t('detail.students')}
        description={t('detail.studentsHint')}
        placeholder={t('detail.studentsSearch')}
        searchable
        clearable
        filter={({ options }) => options}
        nothingFoundMessage={t('detail.noCandidates')}
        data={data}
        value={value.map((o) => o.value)}
        searchValue={search}
        onSearchChange={setSearch}
        onChange={(ids) => onChange(ids.map((id) => data.find((o) => o.value === id)!))}
        error={error}
        aria-invalid={Boolean(error) || undefined}
        w={480}
        data-testid="student-picker"
      />
      {classId && !debounced && found.length > 0 && (
        <Button
          variant="light"
          onClick={() =>
            onChange([...value, ...found.filter((o) => !value.some((v) => v.value === o.value))])
          }
        >
          {t('detail.wholeClass', { count: found.length })}
        </Button>
      )}
    </Group>
  );
}

/** School → class → students chosen by name (searched among the diagnostic's schools). */
function RegisterTab({ diagnostic }: { diagnostic: UgnikDiagnostic }) {
  const t = useUgnikT();
  const queryClient = useQueryClient();
  const [subjectTestId, setSubjectTestId] = useState<string | null>(
    diagnostic.subjectTests[0] ? String(diagnostic.subjectTests[0].id) : null,
  );
  const [testDate, setTestDate] = useState(diagnostic.startsAt.slice(0, 10));
  const [schoolId, setSchoolId] = useState<string | null>(null);
  const [classId, setClassId] = useState<string | null>(null);
  const [picked, setPicked] = useState<StudentOption[]>([]);
  const [result, setResult] = useState<string | null>(null);
  const { attachForm, isLoading, fieldErrors, formError, submit, clearFieldError } = useApiForm();

  const classes = useQuery({
    queryKey: [...ugnikKeys.reference, 'classes', schoolId],
    queryFn: () => listClasses(Number(schoolId)),
    enabled: Boolean(schoolId),
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const extraErrors: Record<string, string> = {};
    if (picked.length === 0) extraErrors.studentIds = t('detail.chooseStudents');
    await submit(
      ugnikParticipantSaveBodySchema.safeParse({
        diagnosticId: diagnostic.id,
        subjectTestId: Number(subjectTestId),
        testDate,
        studentIds: picked.map((o) => Number(o.value)),
      }),
      async (body) => {
        const saved = await saveParticipants(body);
        setResult(t('detail.registered', { created: saved.created, existing: saved.existing }));
        setPicked([]);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: ugnikKeys.participants }),
          queryClient.invalidateQueries({ queryKey: ugnikKeys.diagnostics }),
        ]);
      },
      { extraErrors },
    );
  };

  return (
    <form ref={attachForm} onSubmit={(e) => void onSubmit(e)} noValidate data-testid="register-form">
      <Stack>
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        {result && (
          <Alert color="green" role="status">
            {result}
          </Alert>
        )}
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('detail.subjectTest')}
            data={diagnostic.subjectTests.map((s) => ({ value: String(s.id), label: s.name }))}
            value={subjectTestId}
            onChange={setSubjectTestId}
            error={fieldErrors.subjectTestId}
            allowDeselect={false}
            w={280}
          />
          <TextInput
            type="date"
            label={t('detail.testDate')}
            value={testDate}
            onChange={(e) => (setTestDate(e.currentTarget.value), clearFieldError('testDate'))}
            error={fieldErrors.testDate}
          />
          <Select
            label={t('detail.school')}
            data={diagnostic.schools.map((s) => ({ value: String(s.id), label: s.name }))}
            value={schoolId}
            onChange={(v) => (setSchoolId(v), setClassId(null))}
            searchable
            clearable
            w={280}
          />
          <Select
            label={t('detail.class')}
            data={(classes.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={classId}
            onChange={setClassId}
            disabled={!schoolId}
            searchable
            clearable
            w={160}
          />
        </Group>
        <StudentPicker
          diagnosticId={diagnostic.id}
          schoolId={schoolId}
          classId={classId}
          value={picked}
          onChange={(v) => (setPicked(v), clearFieldError('studentIds'))}
          error={fieldErrors.studentIds}
        />
        <Group>
          <LoadingButton type="submit" loading={isLoading}>
            {t('detail.register')}
          </LoadingButton>
        </Group>
      </Stack>
    </form>
  );
}

function ReportsTab({ diagnostic }: { diagnostic: UgnikDiagnostic }) {
  const t = useUgnikT();
  const { t: tr, i18n } = useTranslation();
  const lang = i18n.language?.startsWith('en') ? 'en' : 'ru';
  const [error, setError] = useState<string | null>(null);
  const statusLabel = useStatusLabel();
  const surnames = useQuery({
    queryKey: ugnikKeys.surnames(diagnostic.id),
    queryFn: () => getSurnames(diagnostic.id),
  });
  const download = (file: { path: string; query: Record<string, QueryValue> }, fallback: string) =>
    downloadFile(file.path, file.query, fallback).then(
      () => setError(null),
      (e: unknown) => setError(describeApiError(e, tr)),
    );
  const columns: Column<UgnikSurnameRow>[] = [
    { key: 'name', header: t('detail.participant'), render: fullName, csv: fullName },
    {
      key: 'school',
      header: t('detail.school'),
      render: (r) => r.schoolName ?? '—',
      csv: (r) => r.schoolName,
    },
    { key: 'class', header: t('detail.class'), render: (r) => r.className ?? '—', csv: (r) => r.className },
    {
      key: 'test',
      header: t('detail.subjectTest'),
      render: (r) => r.subjectTestName,
      csv: (r) => r.subjectTestName,
    },
    {
      key: 'date',
      header: t('detail.testDate'),
      render: (r) => plainDate(r.testDate),
      csv: (r) => plainDate(r.testDate),
    },
    {
      key: 'status',
      header: t('detail.status'),
      render: (r) => statusLabel(r.status),
      csv: (r) => statusLabel(r.status),
    },
    {
      key: 'code',
      header: t('detail.activationCode'),
      render: (r) => r.activationCode,
      csv: (r) => r.activationCode,
    },
    {
      key: 'score',
      header: t('detail.score'),
      render: (r) => num(r.score, lang),
      csv: (r) => num(r.score, lang),
    },
  ];
  return (
    <Stack>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Title order={2} size="h4">
        {t('detail.codesReport')}
      </Title>
      <Group>
        <LoadingButton
          variant="light"
          onClick={() =>
            download(participantCodesFile(diagnostic.id, 'xlsx'), `codes-${diagnostic.code}.xlsx`)
          }
        >
          {t('detail.codesXlsx')}
        </LoadingButton>
        <LoadingButton
          variant="light"
          onClick={() => download(participantCodesFile(diagnostic.id, 'pdf'), `codes-${diagnostic.code}.pdf`)}
        >
          {t('detail.codesPdf')}
        </LoadingButton>
      </Group>
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('detail.surnamesReport')}
        </Title>
        <LoadingButton
          variant="light"
          onClick={() => download(surnamesFile(diagnostic.id), `surnames-${diagnostic.code}.xlsx`)}
        >
          {t('detail.surnamesXlsx')}
        </LoadingButton>
      </Group>
      <RowsTable
        caption={t('detail.surnamesReport')}
        columns={columns}
        rows={surnames.data?.items}
        rowKey={(r) => r.participantTestId}
        error={surnames.error}
        onRetry={() => void surnames.refetch()}
        exportName={`surnames-${diagnostic.code}`}
      />
    </Stack>
  );
}

/** `/ugnik/diagnostics/:id`: the diagnostic, its participants, registration and reports. */
export function UgnikDiagnosticPage() {
  const t = useUgnikT();
  const id = Number(useParams().id);
  const query = useQuery({
    queryKey: ugnikKeys.diagnostic(id),
    queryFn: () => getDiagnostic(id),
    enabled: id > 0,
  });
  const d = query.data;
  const coverage = useQuery({
    queryKey: ugnikKeys.expertCoverage(id),
    queryFn: () => getExpertCoverage(id),
    enabled: d !== undefined,
  });
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/ugnik/diagnostics" size="sm">
        ← {t('common.back')}
      </Anchor>
      {query.isLoading && <Loader />}
      {query.error && (
        <Alert color="red" role="alert">
          {describeApiError(query.error, t)}
        </Alert>
      )}
      {d && (
        <>
          <PageTitle data-testid="ugnik-diagnostic-title">{`${d.name} (${d.code})`}</PageTitle>
          <Group gap="lg">
            <Text size="sm">
              {t('diagnostics.window')}: {windowText(d)}
            </Text>
            <Text size="sm">
              {t('diagnostics.parallels')}: {d.parallels.join(', ')}
            </Text>
            <Text size="sm">
              {t('diagnostics.participants')}: {d.participantCount}
            </Text>
          </Group>
          <Text size="sm">
            {t('diagnostics.subjectTests')}: {d.subjectTests.map((s) => s.name).join(', ')}
          </Text>
          <Text size="sm">
            {t('diagnostics.schools')}: {d.schools.map((s) => s.name).join(', ')}
          </Text>
          {coverage.data && <ExpertCoverageAlert items={coverage.data.items} hint="askAdmin" />}
          <Tabs defaultValue="participants" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="participants">{t('detail.participantsTab')}</Tabs.Tab>
              <Tabs.Tab value="register">{t('detail.registerTab')}</Tabs.Tab>
              <Tabs.Tab value="reports">{t('detail.reportsTab')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="participants" pt="md">
              <ParticipantsTab diagnostic={d} />
            </Tabs.Panel>
            <Tabs.Panel value="register" pt="md">
              <RegisterTab diagnostic={d} />
            </Tabs.Panel>
            <Tabs.Panel value="reports" pt="md">
              <ReportsTab diagnostic={d} />
            </Tabs.Panel>
          </Tabs>
        </>
      )}
    </Stack>
  );
}

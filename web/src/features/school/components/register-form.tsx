import {
  staffParticipantTestRegisterBodySchema,
  type StaffDiagnostic,
  type StaffParticipantTestRegisterResult,
} from '@attesta/contract';
import {
  Alert,
  Checkbox,
  Group,
  List,
  NativeSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useApiForm } from '../../../lib/use-api-form';
import { formatPlainDate } from '../../../lib/format';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { fullName } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';
import { allClassesQuery } from '../api/classes';
import { registerParticipants } from '../api/participant-tests';
import type { StaffRole } from '../api/shared';
import { listStudents } from '../api/students';
import { describeFieldError } from '../../../lib/form-errors';

interface RegisterFormProps {
  role: StaffRole;
  diagnostic: StaffDiagnostic;
  onDone: (result: StaffParticipantTestRegisterResult) => void;
}

/** Register whole classes or chosen students of one class for a subject test of the diagnostic. */
export function RegisterForm({ role, diagnostic, onDone }: RegisterFormProps) {
  const { t } = useBundleT(staffBundle);
  const { attachForm, fieldErrors, formError, isLoading, submit } = useApiForm();
  const classes = useQuery(allClassesQuery(role));
  const [subjectTestId, setSubjectTestId] = useState(String(diagnostic.subjectTests[0]?.id ?? ''));
  const [testDate, setTestDate] = useState(formatPlainDate(new Date(diagnostic.startsAt)));
  const [mode, setMode] = useState<'classes' | 'students'>('classes');
  const [classIds, setClassIds] = useState<string[]>([]);
  const [studentClass, setStudentClass] = useState('');
  const [studentIds, setStudentIds] = useState<string[]>([]);
  const [rowErrors, setRowErrors] = useState<string[]>([]);

  const subjectTest = diagnostic.subjectTests.find((s) => String(s.id) === subjectTestId);
  const fitting = (classes.data?.items ?? []).filter(
    (c) => !subjectTest || subjectTest.parallels.length === 0 || subjectTest.parallels.includes(c.parallel),
  );
  const students = useQuery({
    queryKey: ['staff', role, 'students', 'of-class', studentClass],
    enabled: mode === 'students' && studentClass !== '',
    queryFn: ({ signal }) =>
      listStudents(role)(
        {
          page: 1,
          pageSize: 500,
          sort: { field: 'surname', dir: 'asc' },
          filter: { classId: Number(studentClass) },
        },
        signal,
      ),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setRowErrors([]);
    const picked = mode === 'classes' ? classIds : studentIds;
    const checked = staffParticipantTestRegisterBodySchema.safeParse({
      diagnosticId: diagnostic.id,
      subjectTestId: subjectTestId ? Number(subjectTestId) : undefined,
      testDate,
      ...(mode === 'classes'
        ? { classIds: classIds.length ? classIds.map(Number) : undefined }
        : { studentIds: studentIds.length ? studentIds.map(Number) : undefined }),
    });
    void submit(
      checked,
      async (body) => {
        try {
          onDone(await registerParticipants(role, body));
        } catch (error) {
          // Per-student refusals (`students.<id>`) are listed, not tied to a field.
          if (error instanceof ApiError) {
            setRowErrors(
              error.fieldErrors
                .filter((e) => e.path.startsWith('students.'))
                .map((e) => describeFieldError(e, t)),
            );
          }
          throw error;
        }
      },
      picked.length === 0 ? { extraErrors: { selection: t('staff.register.needSelection') } } : {},
    );
  };

  const err = fieldErrors;
  const selectionError = err.selection ?? err.classIds ?? err.studentIds;
  return (
    <form ref={attachForm} onSubmit={onSubmit} noValidate data-testid="register-form">
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert" data-testid="register-error">
            <Text size="sm">{formError}</Text>
            {rowErrors.length > 0 && (
              <List size="sm" mt="xs">
                {rowErrors.map((message) => (
                  <List.Item key={message}>{message}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        <NativeSelect
          label={t('staff.register.subjectTest')}
          value={subjectTestId}
          onChange={(e) => setSubjectTestId(e.currentTarget.value)}
          data={diagnostic.subjectTests.map((s) => ({ value: String(s.id), label: s.name }))}
          error={err.subjectTestId}
        />
        <TextInput
          type="date"
          label={t('staff.register.testDate')}
          value={testDate}
          onChange={(e) => setTestDate(e.currentTarget.value)}
          error={err.testDate}
        />
        <SegmentedControl
          aria-label={t('staff.register.mode')}
          value={mode}
          onChange={(v) => setMode(v as 'classes' | 'students')}
          data={[
            { value: 'classes', label: t('staff.register.byClass') },
            { value: 'students', label: t('staff.register.bySelection') },
          ]}
        />
        {mode === 'classes' ? (
          <Checkbox.Group
            label={t('staff.register.classes')}
            value={classIds}
            onChange={setClassIds}
            error={selectionError}
          >
            <Group mt="xs">
              {fitting.map((c) => (
                <Checkbox key={c.id} value={String(c.id)} label={c.name} />
              ))}
            </Group>
          </Checkbox.Group>
        ) : (
          <>
            <NativeSelect
              label={t('staff.register.classForStudents')}
              value={studentClass}
              onChange={(e) => {
                setStudentClass(e.currentTarget.value);
                setStudentIds([]);
              }}
              data={[
                { value: '', label: '—' },
                ...fitting.map((c) => ({ value: String(c.id), label: c.name })),
              ]}
            />
            <Checkbox.Group
              label={t('staff.register.students')}
              value={studentIds}
              onChange={setStudentIds}
              error={selectionError}
            >
              <Stack gap={4} mt="xs">
                {studentClass === '' && (
                  <Text size="sm" c="dimmed">
                    {t('staff.register.chooseClass')}
                  </Text>
                )}
                {(students.data?.items ?? []).map((s) => (
                  <Checkbox key={s.id} value={String(s.id)} label={fullName(s)} />
                ))}
              </Stack>
            </Checkbox.Group>
          </>
        )}
        <Group justify="flex-end">
          <LoadingButton type="submit" loading={isLoading} data-testid="register-submit">
            {t('staff.register.submit')}
          </LoadingButton>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The create-a-diagnostic form the admin and the supervision authority (ugnik) share: name, time
 * window, grades, the subject tests of those grades, an optional code, checked before sending.
 * Each work place keeps its own call, schema, texts and extra fields (kind, schools).
 */
import { Alert, Checkbox, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useApiForm, type Checked } from '../../lib/use-api-form';
import { LoadingButton } from '../ui/loading-button';

const PARALLELS = Array.from({ length: 12 }, (_, n) => n);

/** A `datetime-local` value as an instant; an unreadable one is sent as typed, for the schema to refuse. */
const isoOf = (local: string) => {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
};

type TextField = 'name' | 'code' | 'startsAt' | 'endsAt';

/** The keys the form reads from the work place's own strings. */
export type DiagnosticFormKey =
  | 'diagnostics.name'
  | 'diagnostics.startsAt'
  | 'diagnostics.endsAt'
  | 'diagnostics.parallels'
  | 'diagnostics.preschool'
  | 'diagnostics.subjectTests'
  | 'diagnostics.noSubjectTests'
  | 'diagnostics.endsBeforeStart'
  | 'common.create';

export interface SubjectTestChoice {
  id: number;
  name: string;
  subjectName: string;
  parallels: readonly number[];
}

/** What every diagnostic body has, taken from the common fields. */
export interface DiagnosticCommonBody {
  name: string;
  startsAt: string;
  endsAt: string;
  parallels: number[];
  subjectTestIds: number[];
  code?: string;
}

/** The common fields' state and the form's errors; the page adds its own fields beside them. */
export function useDiagnosticForm() {
  const api = useApiForm();
  const [text, setText] = useState<Record<TextField, string>>({
    name: '',
    code: '',
    startsAt: '',
    endsAt: '',
  });
  const [parallels, setParallels] = useState<string[]>([]);
  const [subjectTestIds, setSubjectTestIds] = useState<string[]>([]);

  const err = (field: string) => ({
    error: api.fieldErrors[field],
    'aria-invalid': Boolean(api.fieldErrors[field]) || undefined,
  });
  /** Value, change handler and error of one text input. */
  const textField = (field: TextField) => ({
    value: text[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setText((current) => ({ ...current, [field]: value }));
      api.clearFieldError(field);
    },
    ...err(field),
  });

  return { ...api, text, textField, err, parallels, setParallels, subjectTestIds, setSubjectTestIds };
}
export type DiagnosticFormState = ReturnType<typeof useDiagnosticForm>;

interface DiagnosticFormProps<Body> {
  form: DiagnosticFormState;
  /** The work place's `t`: its texts for the common fields. */
  t: (key: DiagnosticFormKey) => string;
  /** Every subject test the work place may use; those of the chosen grades are offered. */
  subjectTests: readonly SubjectTestChoice[] | undefined;
  testId: string;
  /** The page's field beside the name (the kind, the code). */
  beside: ReactNode;
  /** The page's fields below the subject tests (its schools, the code). */
  children: ReactNode;
  /** Errors the page finds before sending (e.g. no school chosen). */
  extraErrors?: Record<string, string>;
  /** The page's body (the common values with its own fields), checked by its schema. */
  check: (common: DiagnosticCommonBody) => Checked<Body>;
  /** Sends the checked body (the page's call) and moves on. */
  send: (body: Body) => Promise<void>;
}

export function DiagnosticForm<Body>({
  form,
  t,
  subjectTests,
  testId,
  beside,
  children,
  extraErrors,
  check,
  send,
}: DiagnosticFormProps<Body>) {
  // Taken apart here: the form element's callback ref must not be read off the object in render.
  const { attachForm, formError, isLoading, fieldErrors, clearFieldError, submit, text, textField } = form;
  const { parallels, setParallels, subjectTestIds, setSubjectTestIds } = form;
  const grades = parallels.map(Number);
  const offered = (subjectTests ?? []).filter((s) => s.parallels.some((p) => grades.includes(p)));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = { ...extraErrors };
    if (text.startsAt && text.endsAt && new Date(text.endsAt) <= new Date(text.startsAt))
      errors.endsAt = t('diagnostics.endsBeforeStart');
    const code = text.code.trim();
    const common: DiagnosticCommonBody = {
      name: text.name,
      startsAt: isoOf(text.startsAt),
      endsAt: isoOf(text.endsAt),
      parallels: grades,
      // Only tests of the chosen grades: a test picked before its grade was unticked is dropped.
      subjectTestIds: subjectTestIds.map(Number).filter((id) => offered.some((o) => o.id === id)),
      ...(code ? { code } : {}),
    };
    await submit(check(common), send, { extraErrors: errors });
  };

  return (
    <Paper withBorder p="md">
      <form ref={attachForm} onSubmit={(e) => void onSubmit(e)} noValidate data-testid={testId}>
        <Stack>
          {formError && (
            <Alert color="red" role="alert" data-testid="form-error">
              {formError}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('diagnostics.name')} withAsterisk {...textField('name')} />
            {beside}
            <TextInput
              type="datetime-local"
              label={t('diagnostics.startsAt')}
              withAsterisk
              {...textField('startsAt')}
            />
            <TextInput
              type="datetime-local"
              label={t('diagnostics.endsAt')}
              withAsterisk
              {...textField('endsAt')}
            />
          </SimpleGrid>
          <Checkbox.Group
            label={t('diagnostics.parallels')}
            withAsterisk
            value={parallels}
            onChange={(v) => (setParallels(v), clearFieldError('parallels'))}
            error={fieldErrors.parallels}
          >
            <Group mt="xs" gap="sm">
              {PARALLELS.map((n) => (
                <Checkbox
                  key={n}
                  value={String(n)}
                  label={n === 0 ? t('diagnostics.preschool') : String(n)}
                />
              ))}
            </Group>
          </Checkbox.Group>
          <Checkbox.Group
            label={t('diagnostics.subjectTests')}
            withAsterisk
            value={subjectTestIds}
            onChange={(v) => (setSubjectTestIds(v), clearFieldError('subjectTestIds'))}
            error={fieldErrors.subjectTestIds}
          >
            <Stack mt="xs" gap={4}>
              {offered.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('diagnostics.noSubjectTests')}
                </Text>
              )}
              {offered.map((s) => (
                <Checkbox
                  key={s.id}
                  value={String(s.id)}
                  label={`${s.name} — ${s.subjectName} (${s.parallels.join(', ')})`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {children}
          <Group justify="flex-end">
            <LoadingButton type="submit" loading={isLoading}>
              {t('common.create')}
            </LoadingButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

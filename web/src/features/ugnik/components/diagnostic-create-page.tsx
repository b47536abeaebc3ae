import { ugnikDiagnosticCreateBodySchema } from '@attesta/contract';
import {
  Alert,
  Anchor,
  Badge,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { useApiForm } from '../../../lib/use-api-form';
import { createDiagnostic, listMainSubjectTests, listSchools, ugnikKeys } from '../api/ugnik-api';
import { useUgnikT } from '../i18n';

const PARALLELS = Array.from({ length: 12 }, (_, n) => n);
const isoOf = (local: string) => {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
};

/** `/ugnik/diagnostics/new`: an inspection diagnostic across chosen schools. */
export function UgnikDiagnosticCreatePage() {
  const t = useUgnikT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [parallels, setParallels] = useState<string[]>([]);
  const [subjectTestIds, setSubjectTestIds] = useState<string[]>([]);
  const [schoolSearch, setSchoolSearch] = useState('');
  const [schools, setSchools] = useState<Map<number, string>>(new Map());
  const { attachForm, isLoading, fieldErrors, formError, submit, clearFieldError } = useApiForm();

  const subjectTests = useQuery({
    queryKey: [...ugnikKeys.reference, 'main-subject-tests'],
    queryFn: listMainSubjectTests,
  });
  const schoolOptions = useQuery({
    queryKey: [...ugnikKeys.reference, 'schools', schoolSearch.trim()],
    queryFn: () => listSchools(schoolSearch),
  });
  const mutation = useMutation({
    mutationFn: createDiagnostic,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ugnikKeys.diagnostics }),
  });

  const grades = parallels.map(Number);
  const offered = (subjectTests.data?.items ?? []).filter((s) => s.parallels.some((p) => grades.includes(p)));

  const toggleSchool = (id: number, label: string, on: boolean) => {
    setSchools((current) => {
      const next = new Map(current);
      if (on) next.set(id, label);
      else next.delete(id);
      return next;
    });
    clearFieldError('schoolIds');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const extraErrors: Record<string, string> = {};
    if (startsAt && endsAt && new Date(endsAt) <= new Date(startsAt))
      extraErrors.endsAt = t('diagnostics.endsBeforeStart');
    const body = {
      name,
      startsAt: isoOf(startsAt),
      endsAt: isoOf(endsAt),
      parallels: grades,
      subjectTestIds: subjectTestIds.map(Number).filter((id) => offered.some((o) => o.id === id)),
      schoolIds: [...schools.keys()],
      ...(code.trim() ? { code: code.trim() } : {}),
    };
    await submit(
      ugnikDiagnosticCreateBodySchema.safeParse(body),
      async (data) => {
        const created = await mutation.mutateAsync(data);
        void navigate(`/ugnik/diagnostics/${created.id}`);
      },
      { extraErrors },
    );
  };

  const err = (field: string) => ({
    error: fieldErrors[field],
    'aria-invalid': Boolean(fieldErrors[field]) || undefined,
  });

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/ugnik/diagnostics" size="sm">
        ← {t('common.back')}
      </Anchor>
      <PageTitle>{t('diagnostics.createTitle')}</PageTitle>
      <Paper withBorder p="md">
        <form
          ref={attachForm}
          onSubmit={(e) => void onSubmit(e)}
          noValidate
          data-testid="ugnik-diagnostic-form"
        >
          <Stack>
            {formError && (
              <Alert color="red" role="alert" data-testid="form-error">
                {formError}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('diagnostics.name')}
                withAsterisk
                value={name}
                onChange={(e) => (setName(e.currentTarget.value), clearFieldError('name'))}
                {...err('name')}
              />
              <TextInput
                label={t('diagnostics.codeOptional')}
                value={code}
                onChange={(e) => (setCode(e.currentTarget.value), clearFieldError('code'))}
                {...err('code')}
              />
              <TextInput
                type="datetime-local"
                label={t('diagnostics.startsAt')}
                withAsterisk
                value={startsAt}
                onChange={(e) => (setStartsAt(e.currentTarget.value), clearFieldError('startsAt'))}
                {...err('startsAt')}
              />
              <TextInput
                type="datetime-local"
                label={t('diagnostics.endsAt')}
                withAsterisk
                value={endsAt}
                onChange={(e) => (setEndsAt(e.currentTarget.value), clearFieldError('endsAt'))}
                {...err('endsAt')}
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
            <Stack gap={4}>
              <Text fw={500} size="sm">
                {t('diagnostics.schools')} <span aria-hidden>*</span>
              </Text>
              <TextInput
                aria-label={t('diagnostics.schoolSearch')}
                placeholder={t('diagnostics.schoolSearch')}
                value={schoolSearch}
                onChange={(e) => setSchoolSearch(e.currentTarget.value)}
                w={320}
              />
              <Group gap={4} data-testid="selected-schools">
                <Text size="sm">{t('diagnostics.selectedSchools', { count: schools.size })}</Text>
                {[...schools].map(([id, label]) => (
                  <Badge key={id} variant="light">
                    {label}
                  </Badge>
                ))}
              </Group>
              <Stack
                gap={2}
                mah={240}
                style={{ overflowY: 'auto' }}
                role="group"
                aria-label={t('diagnostics.schools')}
              >
                {(schoolOptions.data?.items ?? []).map((s) => (
                  <Checkbox
                    key={s.id}
                    label={`${s.shortName ?? s.name} (${s.ooName})`}
                    checked={schools.has(s.id)}
                    onChange={(e) => toggleSchool(s.id, s.shortName ?? s.name, e.currentTarget.checked)}
                  />
                ))}
              </Stack>
              {fieldErrors.schoolIds && (
                <Text c="red" size="sm" role="alert">
                  {fieldErrors.schoolIds}
                </Text>
              )}
            </Stack>
            <Group justify="flex-end">
              <LoadingButton type="submit" loading={isLoading}>
                {t('common.create')}
              </LoadingButton>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

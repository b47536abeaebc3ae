import { createDiagnosticBodySchema, DIAGNOSTIC_KINDS, type DiagnosticKind } from '@attesta/contract';
import {
  Alert,
  Anchor,
  Checkbox,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { useApiForm } from '../../../lib/use-api-form';
import { adminKeys, createDiagnostic, listSubjectTestOptions } from '../api/admin-api';
import { orgKeys } from '../api/admin-org-api';
import { useAdminT } from '../i18n';
import { SchoolsMultiSelect } from './org-selects';

const PARALLELS = Array.from({ length: 12 }, (_, n) => n);
const isoOf = (local: string) => {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
};

/** `/admin/diagnostics/new`: create a diagnostic, then see it on its own page. */
export function AdminDiagnosticCreatePage() {
  const t = useAdminT();
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const options = useQuery({ queryKey: adminKeys.subjectTestOptions, queryFn: listSubjectTestOptions });
  const [name, setName] = useState('');
  const [kind, setKind] = useState<DiagnosticKind>('diagnostic');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [parallels, setParallels] = useState<string[]>([]);
  const [subjectTestIds, setSubjectTestIds] = useState<string[]>([]);
  const [schools, setSchools] = useState<{ value: string; label: string }[]>([]);
  const [code, setCode] = useState('');
  const { attachForm, isLoading, fieldErrors, formError, submit, clearFieldError } = useApiForm();
  const mutation = useMutation({
    mutationFn: createDiagnostic,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.queue }),
        queryClient.invalidateQueries({ queryKey: orgKeys.diagnostics }),
      ]),
  });

  const grades = parallels.map(Number);
  const offered = (options.data ?? []).filter((o) => o.parallels.some((p) => grades.includes(p)));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const schoolIds = schools.map((s) => Number(s.value));
    const extraErrors: Record<string, string> = {};
    // An admin's diagnostic names its schools (only a coordinator's defaults to their own).
    if (!schoolIds.length) extraErrors.schoolIds = i18n.t('validation.required');
    if (startsAt && endsAt && new Date(endsAt) <= new Date(startsAt))
      extraErrors.endsAt = t('diagnostics.endsBeforeStart');
    const body = {
      name,
      kind,
      startsAt: isoOf(startsAt),
      endsAt: isoOf(endsAt),
      parallels: grades,
      subjectTestIds: subjectTestIds.map(Number).filter((id) => offered.some((o) => o.id === id)),
      ...(schoolIds.length ? { schoolIds } : {}),
      ...(code.trim() ? { code: code.trim() } : {}),
    };
    await submit(
      createDiagnosticBodySchema.safeParse(body),
      async (data) => {
        const diagnostic = await mutation.mutateAsync(data);
        await navigate(`/admin/diagnostics/${diagnostic.id}`);
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
      <PageTitle>{t('diagnostics.createTitle')}</PageTitle>
      <Anchor component={Link} to="/admin/diagnostics" size="sm">
        {t('diagnostics.backToList')}
      </Anchor>
      <Paper withBorder p="md">
        <form
          ref={attachForm}
          onSubmit={(e) => void onSubmit(e)}
          noValidate
          data-testid="admin-diagnostic-form"
        >
          <Stack>
            {formError && (
              <Alert color="red" role="alert">
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
              <Select
                label={t('diagnostics.kind')}
                data={DIAGNOSTIC_KINDS.map((k) => ({ value: k, label: t(`diagnostics.kinds.${k}`) }))}
                value={kind}
                onChange={(v) => v && setKind(v as DiagnosticKind)}
                allowDeselect={false}
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
                {offered.map((o) => (
                  <Checkbox
                    key={o.id}
                    value={String(o.id)}
                    label={`${o.name} — ${o.subjectName} (${o.parallels.join(', ')})`}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <SchoolsMultiSelect
                label={t('diagnostics.schoolIds')}
                description={t('diagnostics.schoolIdsHint')}
                value={schools}
                onChange={(v) => (setSchools(v), clearFieldError('schoolIds'))}
                error={fieldErrors.schoolIds}
              />
              <TextInput
                label={t('diagnostics.code')}
                value={code}
                onChange={(e) => (setCode(e.currentTarget.value), clearFieldError('code'))}
                {...err('code')}
              />
            </SimpleGrid>
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

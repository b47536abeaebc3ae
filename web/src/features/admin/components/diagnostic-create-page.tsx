import {
  createDiagnosticBodySchema,
  DIAGNOSTIC_KINDS,
  type Diagnostic,
  type DiagnosticKind,
} from '@attesta/contract';
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
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDateTime } from '../../../lib/format';
import { useApiForm } from '../../../lib/use-api-form';
import { adminKeys, createDiagnostic, listSubjectTestOptions } from '../api/admin-api';
import { useAdminT } from '../i18n';
import { ListTable, type Column } from '../../../components/list-table/list-table';

const PARALLELS = Array.from({ length: 12 }, (_, n) => n);
const isoOf = (local: string) => {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
};

/** `1, 2,3` → [1, 2, 3]; null when something else was typed. */
export function parseIdList(text: string): number[] | null {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.every((p) => /^\d{1,10}$/.test(p)) ? parts.map(Number) : null;
}

/**
 * `/admin/diagnostics`: create a diagnostic. The API offers admins no list of diagnostics, so the
 * page says so and shows what was created in this session (kept in the query cache).
 */
export function AdminDiagnosticsPage() {
  const t = useAdminT();
  const queryClient = useQueryClient();
  const created = useQuery<Diagnostic[]>({
    queryKey: adminKeys.createdDiagnostics,
    queryFn: () => [],
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const options = useQuery({ queryKey: adminKeys.subjectTestOptions, queryFn: listSubjectTestOptions });
  const [name, setName] = useState('');
  const [kind, setKind] = useState<DiagnosticKind>('diagnostic');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [parallels, setParallels] = useState<string[]>([]);
  const [subjectTestIds, setSubjectTestIds] = useState<string[]>([]);
  const [schools, setSchools] = useState('');
  const [code, setCode] = useState('');
  const [success, setSuccess] = useState<string | null>(null);
  const { attachForm, isLoading, fieldErrors, formError, submit, clearFieldError } = useApiForm();
  const mutation = useMutation({
    mutationFn: createDiagnostic,
    onSuccess: (diagnostic) => {
      queryClient.setQueryData<Diagnostic[]>(adminKeys.createdDiagnostics, (list = []) => [
        diagnostic,
        ...list,
      ]);
      void queryClient.invalidateQueries({ queryKey: adminKeys.queue });
    },
  });

  const grades = parallels.map(Number);
  const offered = (options.data ?? []).filter((o) => o.parallels.some((p) => grades.includes(p)));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSuccess(null);
    const schoolIds = parseIdList(schools);
    const extraErrors: Record<string, string> = {};
    if (schoolIds === null) extraErrors.schoolIds = t('diagnostics.badIds');
    if (startsAt && endsAt && new Date(endsAt) <= new Date(startsAt))
      extraErrors.endsAt = t('diagnostics.endsBeforeStart');
    const body = {
      name,
      kind,
      startsAt: isoOf(startsAt),
      endsAt: isoOf(endsAt),
      parallels: grades,
      subjectTestIds: subjectTestIds.map(Number).filter((id) => offered.some((o) => o.id === id)),
      ...(schoolIds?.length ? { schoolIds } : {}),
      ...(code.trim() ? { code: code.trim() } : {}),
    };
    await submit(
      createDiagnosticBodySchema.safeParse(body),
      async (data) => {
        const diagnostic = await mutation.mutateAsync(data);
        setSuccess(t('diagnostics.created', { code: diagnostic.code }));
      },
      { extraErrors },
    );
  };

  const columns: Column<Diagnostic>[] = [
    { key: 'id', header: t('diagnostics.id'), cell: (d) => d.id, csv: (d) => d.id },
    { key: 'code', header: t('content.code'), cell: (d) => d.code, csv: (d) => d.code },
    { key: 'name', header: t('diagnostics.name'), cell: (d) => d.name, csv: (d) => d.name },
    { key: 'kind', header: t('diagnostics.kind'), cell: (d) => d.kind, csv: (d) => d.kind },
    {
      key: 'window',
      header: t('diagnostics.window'),
      cell: (d) =>
        `${formatDisplayDateTime(new Date(d.startsAt))} — ${formatDisplayDateTime(new Date(d.endsAt))}`,
      csv: (d) => `${d.startsAt} — ${d.endsAt}`,
    },
    {
      key: 'parallels',
      header: t('diagnostics.parallels'),
      cell: (d) => d.parallels.join(', '),
      csv: (d) => d.parallels.join(', '),
    },
    {
      key: 'queue',
      header: t('diagnostics.queue'),
      cell: (d) => (
        <Anchor component={Link} to={`/admin/queue?diagnosticId=${d.id}`} size="sm">
          {t('diagnostics.queue')}
        </Anchor>
      ),
    },
  ];

  const err = (field: string) => ({
    error: fieldErrors[field],
    'aria-invalid': Boolean(fieldErrors[field]) || undefined,
  });

  return (
    <Stack gap="md">
      <PageTitle>{t('diagnostics.title')}</PageTitle>
      <Alert color="blue" data-testid="no-admin-diagnostic-list">
        {t('diagnostics.noListCall')}
      </Alert>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          {t('diagnostics.createTitle')}
        </Title>
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
            {success && (
              <Alert color="green" role="status">
                {success}
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
              <TextInput
                label={t('diagnostics.schoolIds')}
                description={t('diagnostics.schoolIdsHint')}
                value={schools}
                onChange={(e) => (setSchools(e.currentTarget.value), clearFieldError('schoolIds'))}
                {...err('schoolIds')}
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
      <Title order={2} size="h4">
        {t('diagnostics.createdList')}
      </Title>
      <ListTable
        caption={t('diagnostics.createdList')}
        columns={columns}
        rows={created.data ?? []}
        rowKey={(d) => d.id}
        isLoading={false}
        error={null}
        csvName="diagnostics"
      />
    </Stack>
  );
}

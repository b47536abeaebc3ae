import { createDiagnosticBodySchema, type SubjectTestOption } from '@attesta/contract';
import { Alert, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useDownload } from '../../../components/data-table/use-download';
import { GRADES, parallelLabel } from '../../../components/staff-format';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { useApiForm } from '../../../lib/use-api-form';
import { createDiagnostic, diagnosticExcelPath, subjectTests } from '../api/diagnostics';
import { schoolKeys } from '../api/shared';
import { useCoordinatorT } from '../locales';
import { DiagnosticsTable } from './diagnostics-table';

/** `datetime-local` value (local wall time) → ISO instant; '' stays '' for the schema to reject. */
export const localToIso = (value: string) => {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : value;
};

function CreateDiagnosticForm({ onCreated }: { onCreated: (code: string) => void }) {
  const { t } = useCoordinatorT();
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const tests = useQuery({
    queryKey: schoolKeys.subjectTests,
    queryFn: ({ signal }) => subjectTests(signal),
  });
  const [v, setV] = useState({ name: '', startsAt: '', endsAt: '', code: '' });
  const [parallels, setParallels] = useState<string[]>([]);
  const [testIds, setTestIds] = useState<string[]>([]);
  const fitting = (tests.data ?? []).filter(
    (s: SubjectTestOption) => s.kind !== 'worker' && s.parallels.some((p) => parallels.includes(String(p))),
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = createDiagnosticBodySchema.safeParse({
      name: v.name,
      startsAt: localToIso(v.startsAt),
      endsAt: localToIso(v.endsAt),
      parallels: parallels.map(Number),
      subjectTestIds: testIds.map(Number).filter((id) => fitting.some((s) => s.id === id)),
      ...(v.code.trim() ? { code: v.code.trim() } : {}),
    });
    void submit(checked, async (body) => {
      const created = await createDiagnostic(body);
      onCreated(created.code);
    });
  };
  const err = fieldErrors;
  const field = (name: 'name' | 'startsAt' | 'endsAt' | 'code', type = 'text') => (
    <TextInput
      type={type}
      label={t(`coordinatorPages.diagnostics.${name}`)}
      required={name !== 'code'}
      value={v[name]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setV((cur) => ({ ...cur, [name]: value }));
        clearFieldError(name);
      }}
      error={err[name]}
    />
  );
  return (
    <form ref={attachForm} onSubmit={onSubmit} noValidate data-testid="diagnostic-form">
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        {field('name')}
        <Group grow>
          {field('startsAt', 'datetime-local')}
          {field('endsAt', 'datetime-local')}
        </Group>
        <Checkbox.Group
          label={t('coordinatorPages.diagnostics.parallels')}
          value={parallels}
          onChange={setParallels}
          error={err.parallels}
        >
          <Group mt="xs" gap="sm">
            {GRADES.map((g) => (
              <Checkbox key={g} value={String(g)} label={g === 0 ? parallelLabel(0, t) : String(g)} />
            ))}
          </Group>
        </Checkbox.Group>
        <Checkbox.Group
          label={t('coordinatorPages.diagnostics.subjectTests')}
          value={testIds}
          onChange={setTestIds}
          error={err.subjectTestIds}
        >
          <Stack gap={4} mt="xs">
            {fitting.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('coordinatorPages.diagnostics.noTests')}
              </Text>
            )}
            {fitting.map((s) => (
              <Checkbox key={s.id} value={String(s.id)} label={`${s.name} (${s.parallels.join(', ')})`} />
            ))}
          </Stack>
        </Checkbox.Group>
        {field('code')}
        <Group justify="flex-end">
          <LoadingButton type="submit" loading={isLoading} data-testid="diagnostic-save">
            {t('coordinatorPages.diagnostics.create')}
          </LoadingButton>
        </Group>
      </Stack>
    </form>
  );
}

export function CoordinatorDiagnosticsPage() {
  const { t } = useCoordinatorT();
  const queryClient = useQueryClient();
  const download = useDownload();
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap="lg">
      <PageTitle data-testid="coordinator-diagnostics-title">{t('staff.diagnostics.title')}</PageTitle>
      <DiagnosticsTable
        role="coordinator"
        basePath="/coordinator/diagnostics"
        actions={
          <Button onClick={() => setCreating(true)} data-testid="diagnostic-create">
            {t('coordinatorPages.diagnostics.create')}
          </Button>
        }
        rowActions={(d) => (
          <LoadingButton
            size="xs"
            variant="light"
            onClick={() =>
              download(diagnosticExcelPath(), { diagnosticId: d.id }, `participants-${d.code}.xlsx`)
            }
          >
            {t('coordinatorPages.diagnostics.excel')}
          </LoadingButton>
        )}
      />
      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title={t('coordinatorPages.diagnostics.create')}
        size="lg"
      >
        {creating && (
          <CreateDiagnosticForm
            onCreated={(code) => {
              notifications.show({
                color: 'green',
                message: t('coordinatorPages.diagnostics.created', { code }),
              });
              setCreating(false);
              void queryClient.invalidateQueries({ queryKey: schoolKeys.diagnostics('coordinator') });
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

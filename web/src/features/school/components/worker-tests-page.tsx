import { workerTestSaveBodySchema, type WorkerTest, type WorkerTestSortField } from '@attesta/contract';
import { Button, Code, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Column } from '../../../components/data-table/data-table';
import { fullName, instant } from '../../../components/staff-format';
import { LoadingButton } from '../../../components/ui/loading-button';
import { subjectTests } from '../api/diagnostics';
import { listOrganizators } from '../api/organizators';
import { schoolKeys } from '../api/shared';
import {
  deleteWorkerTest,
  generateActivationCode,
  listWorkerTests,
  saveWorkerTest,
} from '../api/worker-tests';
import { localToIso } from './coordinator-diagnostics-page';
import { useCoordinatorT } from '../locales';
import { PositionSelect, RecordForm, RecordListPage, useRecordForm } from './record-editor';
import { useNotifyError } from '../../../lib/use-notify-error';

/** ISO instant → `datetime-local` value in local wall time. */
const isoToLocal = (iso: string) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

function WorkerTestForm({ test, onSaved }: { test: WorkerTest | null; onSaved: () => void }) {
  const { t } = useCoordinatorT();
  const form = useRecordForm({
    name: test?.name ?? '',
    subjectTestId: test ? String(test.subjectTestId) : '',
    positionId: test?.positionId ? String(test.positionId) : '',
    startsAt: test ? isoToLocal(test.startsAt) : '',
    endsAt: test ? isoToLocal(test.endsAt) : '',
  });
  const { values: v, set, fieldErrors: err } = form;
  const tests = useQuery({
    queryKey: schoolKeys.subjectTests,
    queryFn: ({ signal }) => subjectTests(signal),
  });
  const onSubmit = () => {
    const checked = workerTestSaveBodySchema.safeParse({
      ...(test ? { id: test.id } : {}),
      name: v.name,
      subjectTestId: v.subjectTestId ? Number(v.subjectTestId) : undefined,
      positionId: v.positionId ? Number(v.positionId) : null,
      startsAt: localToIso(v.startsAt),
      endsAt: localToIso(v.endsAt),
    });
    void form.submit(checked, async (body) => {
      await saveWorkerTest(body);
      onSaved();
    });
  };
  const workerTests = (tests.data ?? []).filter((s) => s.kind === 'worker');
  return (
    <RecordForm form={form} testId="worker-test" onSubmit={onSubmit}>
      <TextInput
        label={t('coordinatorPages.workerTests.name')}
        required
        value={v.name}
        onChange={(e) => set('name', e.currentTarget.value)}
        error={err.name}
      />
      <NativeSelect
        label={t('coordinatorPages.workerTests.subjectTest')}
        required
        value={v.subjectTestId}
        onChange={(e) => set('subjectTestId', e.currentTarget.value)}
        data={[
          { value: '', label: '—' },
          ...(workerTests.length ? workerTests : (tests.data ?? [])).map((s) => ({
            value: String(s.id),
            label: s.name,
          })),
        ]}
        error={err.subjectTestId}
      />
      <PositionSelect
        label={t('coordinatorPages.workerTests.position')}
        noneLabel={t('coordinatorPages.workerTests.anyPosition')}
        value={v.positionId}
        onChange={(value) => set('positionId', value)}
        error={err.positionId}
      />
      <Group grow>
        <TextInput
          type="datetime-local"
          label={t('coordinatorPages.workerTests.startsAt')}
          required
          value={v.startsAt}
          onChange={(e) => set('startsAt', e.currentTarget.value)}
          error={err.startsAt}
        />
        <TextInput
          type="datetime-local"
          label={t('coordinatorPages.workerTests.endsAt')}
          required
          value={v.endsAt}
          onChange={(e) => set('endsAt', e.currentTarget.value)}
          error={err.endsAt}
        />
      </Group>
    </RecordForm>
  );
}

function ActivationCode({ test }: { test: WorkerTest }) {
  const { t } = useCoordinatorT();
  const notifyError = useNotifyError();
  const organizators = useQuery({
    queryKey: [...schoolKeys.organizators, 'all'],
    queryFn: ({ signal }) =>
      listOrganizators({ page: 1, pageSize: 500, sort: { field: 'surname', dir: 'asc' } }, signal),
  });
  const [workerId, setWorkerId] = useState('');
  const [code, setCode] = useState<string | null>(null);
  const generate = async () => {
    if (!workerId) return;
    try {
      setCode((await generateActivationCode(test.id, Number(workerId))).activationCode);
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <Stack>
      <NativeSelect
        label={t('coordinatorPages.workerTests.worker')}
        value={workerId}
        onChange={(e) => {
          setWorkerId(e.currentTarget.value);
          setCode(null);
        }}
        data={[
          { value: '', label: '—' },
          ...(organizators.data?.items ?? [])
            .filter((o) => o.workerId !== null)
            .map((o) => ({ value: String(o.workerId), label: `${fullName(o) || o.login} (${o.login})` })),
        ]}
      />
      {code && (
        <Text>
          {t('coordinatorPages.workerTests.code')}:{' '}
          <Code fz="lg" data-testid="worker-code">
            {code}
          </Code>
        </Text>
      )}
      <Group justify="flex-end">
        <LoadingButton onClick={generate} disabled={!workerId} data-testid="worker-code-generate">
          {t('coordinatorPages.workerTests.generate')}
        </LoadingButton>
      </Group>
    </Stack>
  );
}

/** Staff tests (organizers' training): list, create/edit/delete, activation codes, report. */
export function WorkerTestsPage() {
  const { t } = useCoordinatorT();
  const queryClient = useQueryClient();
  const notifyError = useNotifyError();
  const [deleting, setDeleting] = useState<WorkerTest | null>(null);
  const [coding, setCoding] = useState<WorkerTest | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: schoolKeys.workerTests });

  const remove = async () => {
    if (!deleting) return;
    try {
      await deleteWorkerTest(deleting.id);
      setDeleting(null);
      await refresh();
    } catch (error) {
      notifyError(error);
    }
  };

  const columns = (edit: (w: WorkerTest) => void): Column<WorkerTest, WorkerTestSortField>[] => [
    {
      key: 'name',
      header: t('coordinatorPages.workerTests.name'),
      sortField: 'name',
      render: (w) => w.name,
      csv: (w) => w.name,
    },
    {
      key: 'subjectTest',
      header: t('coordinatorPages.workerTests.subjectTest'),
      render: (w) => w.subjectTestName,
      csv: (w) => w.subjectTestName,
    },
    {
      key: 'position',
      header: t('coordinatorPages.workerTests.position'),
      render: (w) => w.positionName ?? t('coordinatorPages.workerTests.anyPosition'),
      csv: (w) => w.positionName,
    },
    {
      key: 'startsAt',
      header: t('coordinatorPages.workerTests.window'),
      sortField: 'startsAt',
      render: (w) => `${instant(w.startsAt)} — ${instant(w.endsAt)}`,
      csv: (w) => `${instant(w.startsAt)} — ${instant(w.endsAt)}`,
    },
    {
      key: 'participants',
      header: t('coordinatorPages.workerTests.participants'),
      render: (w) => w.participantCount,
      csv: (w) => w.participantCount,
    },
    {
      key: 'actions',
      header: t('staff.common.actions'),
      render: (w) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => setCoding(w)}>
            {t('coordinatorPages.workerTests.code')}
          </Button>
          {w.editable && (
            <>
              <Button size="xs" variant="subtle" onClick={() => edit(w)}>
                {t('staff.common.edit')}
              </Button>
              <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(w)}>
                {t('staff.common.delete')}
              </Button>
            </>
          )}
        </Group>
      ),
    },
  ];

  return (
    <RecordListPage
      title={t('coordinatorPages.workerTests.title')}
      titleTestId="coordinator-worker-tests-title"
      testId="worker-tests"
      queryKey={schoolKeys.workerTests}
      fetchPage={listWorkerTests}
      columns={columns}
      rowKey={(w) => w.id}
      initialSort={{ field: 'startsAt', dir: 'desc' }}
      exportName="worker-tests"
      reportLabel={t('coordinatorPages.workerTests.report')}
      addLabel={t('coordinatorPages.workerTests.add')}
      newTitle={t('coordinatorPages.workerTests.newTitle')}
      editTitle={t('coordinatorPages.workerTests.editTitle')}
      form={(test, saved) => <WorkerTestForm test={test} onSaved={saved} />}
    >
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('staff.common.delete')}>
        <Stack>
          <Text>{t('coordinatorPages.workerTests.deleteConfirm', { name: deleting?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('staff.common.cancel')}
            </Button>
            <LoadingButton color="red" onClick={remove}>
              {t('staff.common.delete')}
            </LoadingButton>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={coding !== null}
        onClose={() => setCoding(null)}
        title={t('coordinatorPages.workerTests.codeTitle')}
      >
        {coding && <ActivationCode test={coding} />}
      </Modal>
    </RecordListPage>
  );
}

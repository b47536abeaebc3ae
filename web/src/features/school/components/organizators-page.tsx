import {
  staffOrganizatorSaveBodySchema,
  type StaffOrganizator,
  type StaffOrganizatorSortField,
} from '@attesta/contract';
import {
  Badge,
  Button,
  Code,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Column } from '../../../components/data-table/data-table';
import { fullName } from '../../../components/staff-format';
import { LoadingButton } from '../../../components/ui/loading-button';
import { allBuildingsQuery } from '../api/buildings';
import { allClassesQuery } from '../api/classes';
import { blockOrganizator, listOrganizators, saveOrganizator } from '../api/organizators';
import { schoolKeys } from '../api/shared';
import { useNotifyError } from '../../../lib/use-notify-error';
import { useCoordinatorT } from '../locales';
import { PositionSelect, RecordForm, RecordListPage, useRecordForm } from './record-editor';

function OrganizatorForm({
  organizator,
  onSaved,
}: {
  organizator: StaffOrganizator | null;
  onSaved: (generatedPassword: string | null) => void;
}) {
  const { t } = useCoordinatorT();
  const form = useRecordForm({
    login: organizator?.login ?? '',
    password: '',
    surname: organizator?.surname ?? '',
    name: organizator?.name ?? '',
    patronymic: organizator?.patronymic ?? '',
    email: organizator?.email ?? '',
    positionId: organizator?.positionId ? String(organizator.positionId) : '',
    classIds: organizator?.classes.map((c) => String(c.id)) ?? [],
    buildingIds: organizator?.buildings.map((b) => String(b.id)) ?? [],
  });
  const { values: v, set, fieldErrors: err } = form;
  const classes = useQuery(allClassesQuery('coordinator'));
  const buildings = useQuery(allBuildingsQuery('coordinator'));

  const onSubmit = () => {
    const checked = staffOrganizatorSaveBodySchema.safeParse({
      ...(organizator ? { id: organizator.id } : {}),
      login: v.login,
      ...(v.password ? { password: v.password } : {}),
      surname: v.surname,
      name: v.name,
      patronymic: v.patronymic,
      email: v.email.trim() === '' ? null : v.email.trim(),
      positionId: v.positionId ? Number(v.positionId) : null,
      classIds: v.classIds.map(Number),
      buildingIds: v.buildingIds.map(Number),
    });
    void form.submit(checked, async (body) => {
      const result = await saveOrganizator(body);
      onSaved(result.generatedPassword);
    });
  };
  const text = (field: 'login' | 'surname' | 'name' | 'patronymic' | 'email', required = false) => (
    <TextInput
      label={t(`coordinatorPages.organizators.${field}`)}
      required={required}
      value={v[field]}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={err[field]}
    />
  );
  return (
    <RecordForm form={form} testId="organizator" onSubmit={onSubmit}>
      {text('login', true)}
      <PasswordInput
        label={t('coordinatorPages.organizators.password')}
        description={t('coordinatorPages.organizators.passwordHint')}
        value={v.password}
        onChange={(e) => set('password', e.currentTarget.value)}
        error={err.password}
        autoComplete="new-password"
      />
      {text('surname', true)}
      {text('name', true)}
      {text('patronymic')}
      {text('email')}
      <PositionSelect
        label={t('coordinatorPages.organizators.position')}
        noneLabel="—"
        value={v.positionId}
        onChange={(value) => set('positionId', value)}
        error={err.positionId}
      />
      <MultiSelect
        label={t('coordinatorPages.organizators.classes')}
        value={v.classIds}
        onChange={(value) => set('classIds', value)}
        data={(classes.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
        searchable
        error={err.classIds}
      />
      <MultiSelect
        label={t('coordinatorPages.organizators.buildings')}
        value={v.buildingIds}
        onChange={(value) => set('buildingIds', value)}
        data={(buildings.data?.items ?? []).map((b) => ({ value: String(b.id), label: b.name }))}
        searchable
        error={err.buildingIds}
      />
    </RecordForm>
  );
}

/** Organizators of the school: assignments, training state, create/edit, block/unblock. */
export function OrganizatorsPage() {
  const { t } = useCoordinatorT();
  const queryClient = useQueryClient();
  const notifyError = useNotifyError();
  const [blocking, setBlocking] = useState<StaffOrganizator | null>(null);
  const [reason, setReason] = useState('');
  const [password, setPassword] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: schoolKeys.organizators });

  const toggleBlock = async () => {
    if (!blocking) return;
    try {
      await blockOrganizator(blocking.id, {
        blocked: !blocking.isBlocked,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      setBlocking(null);
      setReason('');
      await refresh();
    } catch (error) {
      notifyError(error);
    }
  };

  // Each staff test with the organizator's status in words (the screen and its CSV alike).
  const training = (o: StaffOrganizator) =>
    o.workerTests
      .map(
        (w) =>
          `${w.name}: ${w.status === 'not_registered' ? t('coordinatorPages.organizators.notRegistered') : t(`staff.participants.status_.${w.status}`)}`,
      )
      .join('; ');
  const columns = (
    edit: (o: StaffOrganizator) => void,
  ): Column<StaffOrganizator, StaffOrganizatorSortField>[] => [
    {
      key: 'surname',
      header: t('coordinatorPages.organizators.fullName'),
      sortField: 'surname',
      render: (o) => fullName(o) || '—',
      csv: (o) => fullName(o),
    },
    {
      key: 'login',
      header: t('coordinatorPages.organizators.login'),
      sortField: 'login',
      render: (o) => o.login,
      csv: (o) => o.login,
    },
    {
      key: 'position',
      header: t('coordinatorPages.organizators.position'),
      render: (o) => o.positionName ?? '—',
      csv: (o) => o.positionName,
    },
    {
      key: 'classes',
      header: t('coordinatorPages.organizators.classes'),
      render: (o) => [...o.buildings.map((b) => b.name), ...o.classes.map((c) => c.name)].join(', ') || '—',
      csv: (o) => [...o.buildings.map((b) => b.name), ...o.classes.map((c) => c.name)].join(', '),
    },
    {
      key: 'training',
      header: t('coordinatorPages.organizators.training'),
      render: (o) => training(o) || '—',
      csv: training,
    },
    {
      key: 'state',
      header: t('coordinatorPages.organizators.state'),
      render: (o) =>
        o.isBlocked ? (
          <Badge color="red">{t('coordinatorPages.organizators.blocked')}</Badge>
        ) : (
          <Badge color="green">{t('coordinatorPages.organizators.active')}</Badge>
        ),
      csv: (o) =>
        o.isBlocked ? t('coordinatorPages.organizators.blocked') : t('coordinatorPages.organizators.active'),
    },
    {
      key: 'actions',
      header: t('staff.common.actions'),
      render: (o) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => edit(o)}>
            {t('staff.common.edit')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color={o.isBlocked ? 'green' : 'red'}
            onClick={() => setBlocking(o)}
            data-testid={`organizator-block-${o.id}`}
          >
            {o.isBlocked
              ? t('coordinatorPages.organizators.unblock')
              : t('coordinatorPages.organizators.block')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <RecordListPage
      title={t('coordinatorPages.organizators.title')}
      titleTestId="coordinator-organizators-title"
      testId="organizators"
      queryKey={schoolKeys.organizators}
      fetchPage={listOrganizators}
      columns={columns}
      rowKey={(o) => o.id}
      initialSort={{ field: 'surname', dir: 'asc' }}
      exportName="organizators"
      reportLabel={t('coordinatorPages.organizators.report')}
      addLabel={t('coordinatorPages.organizators.add')}
      addTestId="organizator-add"
      newTitle={t('coordinatorPages.organizators.newTitle')}
      editTitle={t('coordinatorPages.organizators.editTitle')}
      form={(organizator, saved) => (
        <OrganizatorForm
          organizator={organizator}
          onSaved={(generated) => {
            notifications.show({ color: 'green', message: t('coordinatorPages.organizators.saved') });
            saved();
            setPassword(generated);
          }}
        />
      )}
    >
      <Modal
        opened={blocking !== null}
        onClose={() => setBlocking(null)}
        title={
          blocking?.isBlocked
            ? t('coordinatorPages.organizators.unblock')
            : t('coordinatorPages.organizators.block')
        }
      >
        <Stack>
          <Text>{blocking ? `${fullName(blocking)} (${blocking.login})` : ''}</Text>
          <TextInput
            label={t('coordinatorPages.organizators.reason')}
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <LoadingButton
              color={blocking?.isBlocked ? 'green' : 'red'}
              onClick={toggleBlock}
              data-testid="block-confirm"
            >
              {blocking?.isBlocked
                ? t('coordinatorPages.organizators.unblock')
                : t('coordinatorPages.organizators.block')}
            </LoadingButton>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={password !== null}
        onClose={() => setPassword(null)}
        title={t('coordinatorPages.organizators.passwordTitle')}
      >
        <Stack>
          <Text>{t('coordinatorPages.organizators.passwordOnce')}</Text>
          <Code fz="lg" data-testid="generated-password">
            {password}
          </Code>
        </Stack>
      </Modal>
    </RecordListPage>
  );
}

/** The participant-test card (`GET/PUT /api/ParticipantTest/info`): date, class, status; deleted works. */
import {
  EXAM_WORK_STATUSES,
  MANUAL_PARTICIPANT_TEST_STATUSES,
  participantTestInfoUpdateBodySchema,
  type ParticipantTestInfo,
} from '@attesta/contract';
import { Alert, Code, Group, Loader, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { instant, plainDate } from '../../../components/staff-format';
import { LoadingButton } from '../../../components/ui/loading-button';
import { describeApiError } from '../../../lib/form-errors';
import { listClasses, orgKeys } from '../api/admin-org-api';
import {
  getParticipantTestInfo,
  participantTestKeys,
  restoreExamWork,
  updateParticipantTestInfo,
} from '../api/participant-tests-api';
import { useEditForm } from '../../../lib/use-edit-form';
import { useParticipantStatusLabel } from '../hooks/use-participant-status-label';
import { useAdminT } from '../i18n';
import { FormModal } from '../../../components/ui/form-modal';

interface Window {
  startsAt: string;
  endsAt: string;
}

/** The Moscow calendar day of an instant (test dates are Moscow days). */
export const moscowDay = (value: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Moscow',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(value));

interface CardModalProps {
  id: number;
  name: string;
  window: Window;
  onClose: () => void;
  onChanged: () => Promise<unknown>;
}

export function ParticipantCardModal(props: CardModalProps) {
  const t = useAdminT();
  const { t: tr } = useTranslation();
  const info = useQuery({
    queryKey: participantTestKeys.info(props.id),
    queryFn: () => getParticipantTestInfo(props.id),
  });
  if (info.data) return <CardForm {...props} info={info.data} />;
  return (
    <Modal opened onClose={props.onClose} title={t('participants.cardTitle', { name: props.name })} size="lg">
      {info.error ? (
        <Alert color="red" role="alert">
          {describeApiError(info.error, tr)}
        </Alert>
      ) : (
        <Loader size="sm" aria-label={t('participants.card')} />
      )}
    </Modal>
  );
}

function CardForm({
  info,
  name,
  window,
  onClose,
  onChanged,
}: CardModalProps & { info: ParticipantTestInfo }) {
  const t = useAdminT();
  const { t: tr } = useTranslation();
  const statusLabel = useParticipantStatusLabel();
  const queryClient = useQueryClient();
  const [restoreError, setRestoreError] = useState<string | null>(null);
  const schoolId = info.school?.id ?? null;
  const classes = useQuery({
    queryKey: orgKeys.classes(schoolId ?? 0),
    queryFn: () => listClasses(schoolId!),
    enabled: schoolId !== null,
  });
  const form = useEditForm(() => ({
    testDate: info.testDate,
    classId: info.class ? String(info.class.id) : '',
    status: info.status,
    reason: '',
  }));
  const manual = (MANUAL_PARTICIPANT_TEST_STATUSES as readonly string[]).includes(info.status);
  const from = moscowDay(window.startsAt);
  const till = moscowDay(window.endsAt);

  const onSubmit = () => {
    const v = form.values;
    const statusChanged = v.status !== info.status;
    const classId = v.classId ? Number(v.classId) : null;
    // Only what changed is sent: an omitted field keeps its value.
    const body = {
      id: info.id,
      ...(v.testDate !== info.testDate ? { testDate: v.testDate } : {}),
      ...(classId !== (info.class?.id ?? null) ? { classId } : {}),
      ...(statusChanged ? { status: v.status } : {}),
      ...(v.reason.trim() ? { reason: v.reason } : {}),
    };
    const extraErrors: Record<string, string> = {};
    if (statusChanged && !v.reason.trim()) extraErrors.reason = t('participants.reasonRequired');
    if (/^\d{4}-\d{2}-\d{2}$/.test(v.testDate) && (v.testDate < from || v.testDate > till)) {
      extraErrors.testDate = t('participants.dateOutside', { from: plainDate(from), till: plainDate(till) });
    }
    return form.submit(
      participantTestInfoUpdateBodySchema.safeParse(body),
      async (checked) => {
        await updateParticipantTestInfo(checked);
        notifications.show({ color: 'green', message: t('participants.saved') });
        await queryClient.invalidateQueries({ queryKey: participantTestKeys.info(info.id) });
        await onChanged();
        onClose();
      },
      { extraErrors },
    );
  };

  const restore = async (examWorkId: number) => {
    setRestoreError(null);
    try {
      await restoreExamWork(examWorkId);
      notifications.show({ color: 'green', message: t('participants.restored') });
      await queryClient.invalidateQueries({ queryKey: participantTestKeys.info(info.id) });
      await onChanged();
    } catch (error) {
      setRestoreError(describeApiError(error, tr));
    }
  };

  const work = info.examWork;
  const workStatusLabel = (status: string) =>
    (EXAM_WORK_STATUSES as readonly string[]).includes(status)
      ? t(`participants.workStatuses.${status as (typeof EXAM_WORK_STATUSES)[number]}`)
      : status;
  return (
    <FormModal
      title={t('participants.cardTitle', { name })}
      testId="participant-card"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Text size="sm">
        {info.school?.name ?? '—'} · {info.subjectTest.name} · {t('participants.activationCode')}{' '}
        <Code>{info.activationCode}</Code> · {t('participants.registrationCode')}{' '}
        <Code>{info.registrationCode}</Code>
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          type="date"
          label={t('participants.testDate')}
          withAsterisk
          min={from}
          max={till}
          {...form.text('testDate')}
        />
        <Select
          label={t('participants.class')}
          data={[
            { value: '', label: t('participants.noClass') },
            ...(info.class ? [{ value: String(info.class.id), label: info.class.name }] : []),
            ...(classes.data ?? [])
              .filter((c) => c.id !== info.class?.id)
              .map((c) => ({ value: String(c.id), label: c.name })),
          ]}
          value={form.values.classId}
          onChange={(v) => form.set('classId', v ?? '')}
          allowDeselect={false}
          {...form.errorOf('classId')}
        />
        <Select
          label={t('participants.status')}
          data={[
            ...(manual ? [] : [{ value: info.status, label: statusLabel(info.status) }]),
            ...MANUAL_PARTICIPANT_TEST_STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
          ]}
          value={form.values.status}
          onChange={(v) => form.set('status', v ?? info.status)}
          allowDeselect={false}
          {...form.errorOf('status')}
        />
        <TextInput
          label={t('participants.reason')}
          description={t('participants.reasonHint')}
          {...form.text('reason')}
        />
      </SimpleGrid>
      <Text size="sm" data-testid="participant-card-work">
        {t('participants.work')}:{' '}
        {work
          ? `${workStatusLabel(work.status)}, ${t('participants.answers', { count: work.answerCount })}${
              work.deviceBound ? `, ${t('participants.deviceBound')}` : ''
            }`
          : t('participants.noWork')}
      </Text>
      {info.deletedExamWorks.length > 0 && (
        <Stack gap={4} data-testid="participant-card-deleted">
          <Text size="sm" fw={700}>
            {t('participants.deletedWorks')}
          </Text>
          {work && (
            <Text size="xs" c="dimmed">
              {t('participants.restoreBlocked')}
            </Text>
          )}
          {info.deletedExamWorks.map((w) => (
            <Group key={w.id} gap="sm">
              <Text size="sm">
                №{w.id} · {instant(w.deletedAt)}
                {w.deletedReason ? ` · ${w.deletedReason}` : ''}
              </Text>
              <LoadingButton
                size="compact-xs"
                variant="light"
                disabled={work !== null}
                onClick={() => restore(w.id)}
                data-testid={`restore-work-${w.id}`}
              >
                {t('participants.restore')}
              </LoadingButton>
            </Group>
          ))}
          {restoreError && (
            <Alert color="red" role="alert">
              {restoreError}
            </Alert>
          )}
        </Stack>
      )}
    </FormModal>
  );
}

import { pausePolicySchema, type PausePolicy, type SubjectTestListItem } from '@attesta/contract';
import { Alert, Group, Loader, Modal, NumberInput, Stack, Switch, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { describeApiError } from '../../../lib/form-errors';
import { useApiForm } from '../../../lib/use-api-form';
import { adminKeys, getPausePolicy, savePausePolicy } from '../api/admin-api';
import { useAdminT } from '../i18n';

/**
 * A subject test's rules for participants' own pauses: allowed or not, at most N pauses and M
 * minutes per work. Staff pauses are never limited; changes apply from the next pause.
 */
export function PausePolicyModal({
  subjectTest,
  onDone,
}: {
  subjectTest: SubjectTestListItem;
  onDone: (message?: string) => void;
}) {
  const t = useAdminT();
  const { t: tt } = useTranslation();
  const key = [...adminKeys.content, 'pause-policy', subjectTest.id];
  const policy = useQuery({ queryKey: key, queryFn: () => getPausePolicy(subjectTest.id) });
  return (
    <Modal
      opened
      onClose={() => onDone()}
      title={t('content.pausesTitle', { name: subjectTest.name })}
      size="lg"
    >
      {policy.isPending ? (
        <Loader size="sm" />
      ) : policy.isError ? (
        <Alert color="red" role="alert">
          {t('content.pausesLoadFailed', { message: describeApiError(policy.error, tt) })}
        </Alert>
      ) : (
        <PausePolicyForm
          subjectTestId={subjectTest.id}
          initial={policy.data}
          queryKey={key}
          onDone={onDone}
        />
      )}
    </Modal>
  );
}

function PausePolicyForm({
  subjectTestId,
  initial,
  queryKey,
  onDone,
}: {
  subjectTestId: number;
  initial: PausePolicy;
  queryKey: readonly unknown[];
  onDone: (message?: string) => void;
}) {
  const t = useAdminT();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<PausePolicy>(initial);
  const { attachForm, isLoading, fieldErrors, formError, submit, clearFieldError } = useApiForm();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await submit(pausePolicySchema.safeParse(draft), async (body) => {
      const saved = await savePausePolicy(subjectTestId, body);
      queryClient.setQueryData(queryKey, saved);
      onDone(t('content.pausesSaved'));
    });
  };
  const number = (field: 'maxCount' | 'maxMinutes', label: string, max: number) => (
    <NumberInput
      label={label}
      value={draft[field]}
      min={0}
      max={max}
      allowDecimal={false}
      disabled={!draft.allowed}
      onChange={(value) => {
        setDraft((d) => ({ ...d, [field]: typeof value === 'number' ? value : Number.NaN }));
        clearFieldError(field);
      }}
      error={fieldErrors[field]}
      aria-invalid={Boolean(fieldErrors[field]) || undefined}
      data-testid={`pause-${field}`}
    />
  );

  return (
    <form ref={attachForm} onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('content.pausesHint')}
        </Text>
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <Switch
          label={t('content.pausesAllowed')}
          checked={draft.allowed}
          onChange={(e) => {
            const allowed = e.currentTarget.checked;
            setDraft((d) => ({ ...d, allowed }));
          }}
          data-testid="pause-allowed"
        />
        {number('maxCount', t('content.pausesMaxCount'), 20)}
        {number('maxMinutes', t('content.pausesMaxMinutes'), 240)}
        <Group justify="flex-end">
          <LoadingButton variant="default" type="button" onClick={() => onDone()}>
            {t('common.cancel')}
          </LoadingButton>
          <LoadingButton type="submit" loading={isLoading} data-testid="pause-save">
            {t('common.save')}
          </LoadingButton>
        </Group>
      </Stack>
    </form>
  );
}

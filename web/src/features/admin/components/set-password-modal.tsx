import { setUserPasswordBodySchema, type UserListItem } from '@attesta/contract';
import { Alert, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { LoadingButton } from '../../../components/ui/loading-button';
import { useApiForm } from '../../../lib/use-api-form';
import { setUserPassword } from '../api/admin-api';
import { useAdminT } from '../i18n';

/** `POST /api/user/{id}/changepassword`: the user's sessions end on the server. */
export function SetPasswordModal({
  user,
  onDone,
}: {
  user: UserListItem;
  onDone: (message?: string) => void;
}) {
  const t = useAdminT();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { attachForm, isLoading, fieldErrors, formError, submit, clearFieldError } = useApiForm();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await submit(
      setUserPasswordBodySchema.safeParse({ password }),
      async (body) => {
        await setUserPassword(user.id, body.password);
        onDone(t('users.passwordSet'));
      },
      { extraErrors: repeat !== password ? { repeat: t('users.passwordsDiffer') } : {} },
    );
  };

  return (
    <Modal opened onClose={() => onDone()} title={t('users.setPasswordTitle', { login: user.login })}>
      <form ref={attachForm} onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack>
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <PasswordInput
            label={t('users.password')}
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              clearFieldError('password');
            }}
            error={fieldErrors.password}
            aria-invalid={Boolean(fieldErrors.password) || undefined}
            autoComplete="new-password"
            withAsterisk
          />
          <PasswordInput
            label={t('users.passwordRepeat')}
            value={repeat}
            onChange={(e) => {
              setRepeat(e.currentTarget.value);
              clearFieldError('repeat');
            }}
            error={fieldErrors.repeat}
            aria-invalid={Boolean(fieldErrors.repeat) || undefined}
            autoComplete="new-password"
            withAsterisk
          />
          <Group justify="flex-end">
            <LoadingButton variant="default" type="button" onClick={() => onDone()}>
              {t('common.cancel')}
            </LoadingButton>
            <LoadingButton type="submit" loading={isLoading}>
              {t('users.setPassword')}
            </LoadingButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { changePasswordBodySchema } from '@attesta/contract';
import { Alert, Paper, PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { useApiForm } from '../../../lib/use-api-form';
import { changePassword } from '../api/account';
import { NewPasswordFields, repeatError } from './account-form-parts';

/** `/account/password` (signed in): own password, old + new. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState({ password: '', repeat: '' });
  const [done, setDone] = useState(false);

  return (
    <Stack gap="lg" maw={520}>
      <PageTitle>{t('account.changePassword.title')}</PageTitle>
      {done && (
        <Alert color="teal" variant="light" data-testid="password-changed">
          {t('account.changePassword.done')}
        </Alert>
      )}
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <form
          ref={attachForm}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setDone(false);
            void submit(
              changePasswordBodySchema.safeParse({ oldPassword, newPassword: password.password }),
              async (data) => {
                await changePassword(data);
                setOldPassword('');
                setPassword({ password: '', repeat: '' });
                setDone(true);
              },
              {
                extraErrors: repeatError(
                  password.password,
                  password.repeat,
                  'newPasswordRepeat',
                  t('validation.passwordsDiffer'),
                ),
                codeToField: {
                  invalid_credentials: {
                    field: 'oldPassword',
                    message: t('account.changePassword.wrongOld'),
                  },
                },
              },
            );
          }}
        >
          <Stack gap="md">
            <PasswordInput
              label={t('account.changePassword.oldPassword')}
              name="oldPassword"
              autoComplete="current-password"
              required
              value={oldPassword}
              onChange={(event) => {
                setOldPassword(event.currentTarget.value);
                clearFieldError('oldPassword');
              }}
              error={fieldErrors.oldPassword}
            />
            <NewPasswordFields
              label={t('account.changePassword.newPassword')}
              name="newPassword"
              value={password}
              onChange={(next) => {
                setPassword(next);
                clearFieldError('newPassword');
                clearFieldError('newPasswordRepeat');
              }}
              errors={{ password: fieldErrors.newPassword, repeat: fieldErrors.newPasswordRepeat }}
            />
            {formError && (
              <Alert color="red" variant="light">
                {formError}
              </Alert>
            )}
            <LoadingButton type="submit" loading={isLoading} data-testid="change-password-submit">
              {t('account.changePassword.submit')}
            </LoadingButton>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

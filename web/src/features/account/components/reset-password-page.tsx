import { resetPasswordBodySchema } from '@attesta/contract';
import { Alert, Anchor, Button, Group, Paper, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { useApiForm } from '../../../lib/use-api-form';
import { resetPassword } from '../api/account';
import { NewPasswordFields, repeatError } from './account-form-parts';

/** `/account/reset?token=`: sets a new password with the token from the reset e-mail. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const [password, setPassword] = useState({ password: '', repeat: '' });
  const [done, setDone] = useState(false);

  const tokenProblem = !token
    ? t('account.reset.noToken')
    : fieldErrors.token
      ? t('account.reset.invalid')
      : null;

  return (
    <Stack gap="lg">
      <PageTitle>{t('account.reset.title')}</PageTitle>
      {done ? (
        <>
          <Alert color="teal" variant="light" data-testid="reset-done">
            {t('account.reset.done')}
          </Alert>
          <Group>
            <Button component={Link} to="/login">
              {t('login.submit')}
            </Button>
          </Group>
        </>
      ) : tokenProblem ? (
        <>
          <Alert color="red" variant="light" data-testid="reset-invalid">
            {tokenProblem}
          </Alert>
          <Group>
            <Button component={Link} to="/account/forgot">
              {t('account.reset.requestNew')}
            </Button>
          </Group>
        </>
      ) : (
        <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
          <form
            ref={attachForm}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit(
                resetPasswordBodySchema.safeParse({ token, newPassword: password.password }),
                async (data) => {
                  await resetPassword(data);
                  setDone(true);
                },
                {
                  extraErrors: repeatError(
                    password.password,
                    password.repeat,
                    'newPasswordRepeat',
                    t('validation.passwordsDiffer'),
                  ),
                  codeToField: { invalid_token: { field: 'token', message: t('account.reset.invalid') } },
                },
              );
            }}
          >
            <Stack gap="md">
              <NewPasswordFields
                label={t('account.reset.newPassword')}
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
              <LoadingButton type="submit" loading={isLoading} fullWidth>
                {t('account.reset.submit')}
              </LoadingButton>
            </Stack>
          </form>
        </Paper>
      )}
      <Anchor component={Link} to="/login">
        {t('account.backToLogin')}
      </Anchor>
    </Stack>
  );
}

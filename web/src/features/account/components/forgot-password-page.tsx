import { sendRegistrationEmailBodySchema } from '@attesta/contract';
import { Alert, Anchor, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { useApiForm } from '../../../lib/use-api-form';
import { requestPasswordReset } from '../api/account';

/** `/account/forgot`: asks for a reset link; the answer never reveals whether the address is known. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  return (
    <Stack gap="lg">
      <PageTitle>{t('account.forgot.title')}</PageTitle>
      {sentTo ? (
        <Alert color="teal" variant="light" data-testid="forgot-sent">
          {t('account.forgot.sent', { email: sentTo })}
        </Alert>
      ) : (
        <>
          <Text c="dimmed">{t('account.forgot.intro')}</Text>
          <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
            <form
              ref={attachForm}
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void submit(
                  sendRegistrationEmailBodySchema.safeParse({ email: email.trim(), kind: 'reset' }),
                  async (data) => {
                    await requestPasswordReset(data.email);
                    setSentTo(data.email);
                  },
                );
              }}
            >
              <Stack gap="md">
                <TextInput
                  label={t('account.email')}
                  type="email"
                  name="email"
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(event) => {
                    setEmail(event.currentTarget.value);
                    clearFieldError('email');
                  }}
                  error={fieldErrors.email}
                />
                {formError && (
                  <Alert color="red" variant="light">
                    {formError}
                  </Alert>
                )}
                <LoadingButton type="submit" loading={isLoading} fullWidth>
                  {t('account.forgot.submit')}
                </LoadingButton>
              </Stack>
            </form>
          </Paper>
        </>
      )}
      <Anchor component={Link} to="/login">
        {t('account.backToLogin')}
      </Anchor>
    </Stack>
  );
}

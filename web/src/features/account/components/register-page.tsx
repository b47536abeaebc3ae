import { registerBodySchema } from '@attesta/contract';
import { Alert, Anchor, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { useApiForm } from '../../../lib/use-api-form';
import { parallelsQuery, register } from '../api/account';
import { NewPasswordFields, repeatError } from './account-form-parts';

const newRegistrationSchema = registerBodySchema.options[0];

/** `/account/register`: guest self-registration; the account works after the e-mail is confirmed. */
export function RegisterPage() {
  const { t } = useTranslation();
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const parallels = useQuery(parallelsQuery());
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [values, setValues] = useState({ email: '', surname: '', name: '', patronymic: '', parallel: '' });
  const [password, setPassword] = useState({ password: '', repeat: '' });

  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    error: fieldErrors[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((v) => ({ ...v, [name]: value }));
      clearFieldError(name);
    },
  });

  if (sentTo) {
    return (
      <Stack gap="lg">
        <PageTitle>{t('account.register.sentTitle')}</PageTitle>
        <Alert color="teal" variant="light" data-testid="register-sent">
          {t('account.register.sentText', { email: sentTo })}
        </Alert>
        <Anchor component={Link} to="/login">
          {t('account.backToLogin')}
        </Anchor>
      </Stack>
    );
  }

  const body = {
    email: values.email.trim(),
    password: password.password,
    surname: values.surname,
    name: values.name,
    patronymic: values.patronymic.trim() || undefined,
    parallel: values.parallel === '' ? undefined : Number(values.parallel),
  };

  return (
    <Stack gap="lg">
      <PageTitle>{t('account.register.title')}</PageTitle>
      <Text c="dimmed">{t('account.register.intro')}</Text>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <form
          ref={attachForm}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit(
              newRegistrationSchema.safeParse(body),
              async (data) => {
                await register(data);
                setSentTo(data.email);
              },
              {
                extraErrors: repeatError(
                  password.password,
                  password.repeat,
                  'passwordRepeat',
                  t('validation.passwordsDiffer'),
                ),
                codeToField: { email_taken: { field: 'email', message: t('apiErrors.codes.email_taken') } },
              },
            );
          }}
        >
          <Stack gap="md">
            <TextInput
              label={t('account.email')}
              type="email"
              autoComplete="email"
              required
              {...field('email')}
            />
            <NewPasswordFields
              label={t('account.password')}
              value={password}
              onChange={(next) => {
                setPassword(next);
                clearFieldError('password');
                clearFieldError('passwordRepeat');
              }}
              errors={{ password: fieldErrors.password, repeat: fieldErrors.passwordRepeat }}
            />
            <TextInput
              label={t('account.register.surname')}
              autoComplete="family-name"
              required
              {...field('surname')}
            />
            <TextInput
              label={t('account.register.name')}
              autoComplete="given-name"
              required
              {...field('name')}
            />
            <TextInput
              label={t('account.register.patronymic')}
              description={t('account.register.patronymicHint')}
              autoComplete="additional-name"
              {...field('patronymic')}
            />
            {parallels.isError ? (
              <Text size="sm" c="dimmed" data-testid="parallels-unavailable">
                {t('account.register.parallelsUnavailable')}
              </Text>
            ) : (
              <NativeSelect
                label={t('account.register.parallel')}
                description={t('account.register.parallelHint')}
                disabled={!parallels.data}
                data={[
                  { value: '', label: t('account.register.parallelNone') },
                  ...(parallels.data ?? []).map((p) => ({ value: String(p.id), label: p.name })),
                ]}
                {...field('parallel')}
              />
            )}
            {formError && (
              <Alert color="red" variant="light">
                {formError}
              </Alert>
            )}
            <LoadingButton type="submit" loading={isLoading} fullWidth data-testid="register-submit">
              {t('account.register.submit')}
            </LoadingButton>
          </Stack>
        </form>
      </Paper>
      <Text>
        {t('account.register.haveAccount')}{' '}
        <Anchor component={Link} to="/login">
          {t('login.submit')}
        </Anchor>
      </Text>
    </Stack>
  );
}

import { Alert, PasswordInput, Stack, TextInput } from '../../../components/lite/core';
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { useApiForm } from '../../../lib/use-api-form';
import { login } from '../api/login';
import { useCompleteLogin } from '../hooks/use-complete-login';
import { checkLogin } from '../check-login';

export function PasswordLoginForm() {
  const { t } = useTranslation();
  const [values, setValues] = useState({ login: '', password: '' });
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const completeLogin = useCompleteLogin();

  const change = (field: keyof typeof values) => (event: ChangeEvent<HTMLInputElement>) => {
    // Read now: the updater runs later, when React has already reset currentTarget.
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    clearFieldError(field);
  };

  return (
    <form
      ref={attachForm}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void checkLogin('password', values).then((checked) =>
          submit(checked, async (body) => completeLogin(await login(body))),
        );
      }}
    >
      <Stack gap="md">
        <TextInput
          label={t('login.login')}
          name="login"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={values.login}
          onChange={change('login')}
          error={fieldErrors.login}
        />
        <PasswordInput
          label={t('login.password')}
          name="password"
          autoComplete="current-password"
          required
          value={values.password}
          onChange={change('password')}
          error={fieldErrors.password}
        />
        {formError && (
          <Alert color="red" variant="light" data-testid="login-error">
            {formError}
          </Alert>
        )}
        <LoadingButton type="submit" loading={isLoading} fullWidth data-testid="login-submit">
          {t('login.submit')}
        </LoadingButton>
      </Stack>
    </form>
  );
}

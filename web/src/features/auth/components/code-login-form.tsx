import { loginBodySchema } from '@attesta/contract';
import { Alert, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { useApiForm } from '../../../lib/use-api-form';
import { login } from '../api/login';
import { useCompleteLogin } from './use-complete-login';

const codeLoginSchema = loginBodySchema.options[1];

export function CodeLoginForm() {
  const { t } = useTranslation();
  const [activationCode, setActivationCode] = useState('');
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const completeLogin = useCompleteLogin();

  return (
    <form
      ref={attachForm}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit(codeLoginSchema.safeParse({ activationCode }), async (body) =>
          completeLogin(await login(body)),
        );
      }}
    >
      <Stack gap="md">
        <TextInput
          label={t('login.activationCode')}
          description={t('login.activationCodeHint')}
          name="activationCode"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          required
          classNames={{ input: 'activation-code-input' }}
          value={activationCode}
          onChange={(event) => {
            setActivationCode(event.currentTarget.value);
            clearFieldError('activationCode');
          }}
          error={fieldErrors.activationCode}
        />
        {formError && (
          <Alert color="red" variant="light" data-testid="login-error">
            {formError}
          </Alert>
        )}
        <LoadingButton type="submit" loading={isLoading} fullWidth data-testid="login-code-submit">
          {t('login.submitCode')}
        </LoadingButton>
      </Stack>
    </form>
  );
}

import { Alert, Group, Loader, Stack, Text, TextInput } from '../../../components/lite/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { ApiError } from '../../../lib/api-client';
import { useApiForm } from '../../../lib/use-api-form';
import { login, loginChallenge } from '../api/login';
import { solveLoginChallenge } from '../api/proof-of-work';
import { useCompleteLogin } from '../hooks/use-complete-login';
import { checkLogin } from '../check-login';

export function CodeLoginForm() {
  const { t } = useTranslation();
  const [activationCode, setActivationCode] = useState('');
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const completeLogin = useCompleteLogin();
  const [checking, setChecking] = useState(false);

  /**
   * After many wrong codes from this address (a whole school may share it) the server asks for a
   * proof of work instead of refusing: solve its challenge (about a second) and send the code again.
   */
  const signIn = async (body: { activationCode: string }) => {
    try {
      await completeLogin(await login(body));
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'proof_of_work_required') throw error;
      setChecking(true);
      try {
        const proof = await solveLoginChallenge(await loginChallenge());
        await completeLogin(await login({ ...body, proof }));
      } finally {
        setChecking(false);
      }
    }
  };

  return (
    <form
      ref={attachForm}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void checkLogin('code', { activationCode }).then((checked) => submit(checked, signIn));
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
        {checking && (
          <Group gap="xs" role="status" aria-live="polite" data-testid="login-code-checking">
            <Loader size="xs" />
            <Text size="sm">{t('login.checking')}</Text>
          </Group>
        )}
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

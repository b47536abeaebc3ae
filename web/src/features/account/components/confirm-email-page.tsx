import { Alert, Button, Loader, Group, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { confirmRegistration } from '../api/account';

type State = { kind: 'working' } | { kind: 'done' } | { kind: 'failed'; message: string };

/** `/account/confirm?token=`: confirms the address as soon as the link from the e-mail is opened. */
export function ConfirmEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<State>({ kind: 'working' });
  // A token works once: React's development double effects (and a re-render) must not send it twice.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    confirmRegistration(token).then(
      () => setState({ kind: 'done' }),
      (error: unknown) =>
        setState({
          kind: 'failed',
          message:
            error instanceof ApiError &&
            (error.code === 'invalid_token' || error.code === 'validation_failed')
              ? t('account.confirm.invalid')
              : describeApiError(error, t),
        }),
    );
  }, [token, t]);

  const view = !token ? { kind: 'failed' as const, message: t('account.confirm.noToken') } : state;

  return (
    <Stack gap="lg">
      <PageTitle>{t('account.confirm.title')}</PageTitle>
      {view.kind === 'working' && (
        <Group role="status">
          <Loader size="sm" />
          <Text>{t('account.confirm.working')}</Text>
        </Group>
      )}
      {view.kind === 'done' && (
        <Alert color="teal" variant="light" data-testid="confirm-done">
          {t('account.confirm.done')}
        </Alert>
      )}
      {view.kind === 'failed' && (
        <Alert color="red" variant="light" data-testid="confirm-failed">
          {view.message}
        </Alert>
      )}
      {view.kind !== 'working' && (
        <Group>
          <Button component={Link} to="/login">
            {t('account.confirm.toLogin')}
          </Button>
          {view.kind === 'failed' && (
            <Button component={Link} to="/account/register" variant="default">
              {t('account.register.title')}
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}

import { Button, Group, Stack, Text } from '../../../components/lite/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { safeReturnUrl } from '../../../lib/location';
import { currentUserQueryKey } from '../../../lib/session';

/** `/unauthorized`: where every 401 lands (spec §2). Works without a session. */
export function UnauthorizedPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const returnUrl = safeReturnUrl(params.get('returnUrl'));
  const noRole = params.get('reason') === 'no_role';

  useEffect(() => {
    // The server said the session is gone (or useless here): the cached user must not keep
    // opening signed-in pages as if nothing happened.
    if (!noRole) queryClient.removeQueries({ queryKey: currentUserQueryKey });
  }, [noRole, queryClient]);

  const loginHref = returnUrl ? `/login?${new URLSearchParams({ returnUrl })}` : '/login';
  return (
    <Stack gap="lg">
      <PageTitle data-testid="unauthorized-title">{t('pages.unauthorized.title')}</PageTitle>
      <Text>{noRole ? t('pages.unauthorized.noRole') : t('pages.unauthorized.text')}</Text>
      <Group>
        <Button component={Link} to={loginHref} data-testid="login-again">
          {t('pages.unauthorized.login')}
        </Button>
      </Group>
    </Stack>
  );
}

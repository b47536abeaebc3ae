import { Anchor, Group, Paper, Stack } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Tabs } from '../../../components/lite/tabs';
import { PageTitle } from '../../../components/ui/page-title';
import { CodeLoginForm } from './code-login-form';
import { PasswordLoginForm } from './password-login-form';

type LoginTab = 'password' | 'code';

/**
 * The tab the page opens on: `?tab=`, else the password when the user was sent here from a staff
 * page (`returnUrl` outside the participant's pages), else the activation code — most people who
 * sign in are participants with a code. Not remembered per device: a classroom computer a teacher
 * used must still lead the next student to the code.
 */
function initialTab(params: URLSearchParams): LoginTab {
  const asked = params.get('tab');
  if (asked === 'code' || asked === 'password') return asked;
  const returnUrl = params.get('returnUrl');
  if (returnUrl && !/^\/(participant|exam)(\/|$)/.test(returnUrl)) return 'password';
  return 'code';
}

/** `/login`: by an activation code (participants, first) or by login and password (`?tab=password`). */
export function LoginPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: LoginTab = initialTab(params);

  return (
    <Stack gap="lg">
      <PageTitle data-testid="login-title">{t('login.title')}</PageTitle>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Tabs<LoginTab>
          label={t('login.tabsLabel')}
          grow
          value={tab}
          onChange={(chosen) => {
            const nextParams = new URLSearchParams(params);
            nextParams.set('tab', chosen);
            setParams(nextParams, { replace: true });
          }}
          tabs={[
            { value: 'code', label: t('login.tabCode'), panel: <CodeLoginForm />, testId: 'login-tab-code' },
            {
              value: 'password',
              label: t('login.tabPassword'),
              panel: <PasswordLoginForm />,
              testId: 'login-tab-password',
            },
          ]}
        />
      </Paper>
      <Group justify="space-between">
        <Anchor component={Link} to="/account/register" data-testid="link-register">
          {t('login.register')}
        </Anchor>
        <Anchor component={Link} to="/account/forgot" data-testid="link-forgot">
          {t('login.forgot')}
        </Anchor>
      </Group>
    </Stack>
  );
}

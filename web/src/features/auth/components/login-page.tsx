import { Anchor, Group, Paper, Stack, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { CodeLoginForm } from './code-login-form';
import { PasswordLoginForm } from './password-login-form';

type LoginTab = 'password' | 'code';

/** `/login`: by login and password, or by an activation code (participants). `?tab=code` opens the second tab. */
export function LoginPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: LoginTab = params.get('tab') === 'code' ? 'code' : 'password';

  return (
    <Stack gap="lg">
      <PageTitle data-testid="login-title">{t('login.title')}</PageTitle>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Tabs
          value={tab}
          onChange={(next) => {
            const nextParams = new URLSearchParams(params);
            if (next === 'code') nextParams.set('tab', 'code');
            else nextParams.delete('tab');
            setParams(nextParams, { replace: true });
          }}
          keepMounted={false}
        >
          <Tabs.List aria-label={t('login.tabsLabel')} grow mb="lg">
            <Tabs.Tab value="password" data-testid="login-tab-password">
              {t('login.tabPassword')}
            </Tabs.Tab>
            <Tabs.Tab value="code" data-testid="login-tab-code">
              {t('login.tabCode')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="password">
            <PasswordLoginForm />
          </Tabs.Panel>
          <Tabs.Panel value="code">
            <CodeLoginForm />
          </Tabs.Panel>
        </Tabs>
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

import { Anchor, Box, Container, Group, Text } from '../../components/lite/core';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { FullPageLoader } from '../../components/ui/full-page-loader';
import { LanguageSwitch } from '../../components/ui/language-switch';
import { HelpButton } from '../../features/help/components/help-button';
import { NavigationProgress } from './navigation-progress';
import { SkipLink } from './skip-link';

/** Pages open to everybody: login, registration, password recovery, unauthorized, error, 404. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="gray.0">
      <SkipLink />
      <NavigationProgress />
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="md" py="sm">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Anchor component={Link} to="/" underline="never" c="inherit">
              <Group gap={8} wrap="nowrap">
                <Text fw={700} fz="xl" c="attesta.8">
                  {t('app.name')}
                </Text>
                <Text c="dimmed" fz="sm" visibleFrom="sm">
                  {t('app.tagline')}
                </Text>
              </Group>
            </Anchor>
            <Group gap="sm" wrap="nowrap">
              <HelpButton />
              <LanguageSwitch />
            </Group>
          </Group>
        </Container>
      </Box>
      <Container component="main" id="main" size={560} py="xl">
        <Suspense fallback={<FullPageLoader />}>{children ?? <Outlet />}</Suspense>
      </Container>
    </Box>
  );
}

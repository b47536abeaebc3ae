/** The КИМ section: its sub-navigation above the page of each part. */
import { Button, Group, Stack } from '@mantine/core';
import { Link, Outlet, useLocation } from 'react-router';
import { CONTENT_BASE } from '../content-base';
import { useContentT, type ContentKey } from '../locales';

export { CONTENT_BASE };

const SECTIONS: { path: string; label: ContentKey }[] = [
  { path: 'tests', label: 'nav.tests' },
  { path: 'tasks', label: 'nav.tasks' },
  { path: 'subjects', label: 'nav.subjects' },
  { path: 'specifications', label: 'nav.specifications' },
  { path: 'import', label: 'nav.import' },
  { path: 'containers', label: 'nav.containers' },
  { path: 'help', label: 'nav.help' },
  { path: 'pages', label: 'nav.pages' },
  { path: 'overview', label: 'nav.overview' },
];

export function ContentLayout() {
  const t = useContentT();
  const { pathname } = useLocation();
  return (
    <Stack gap="md">
      <Group component="nav" aria-label={t('nav.label')} gap={4} wrap="wrap" data-testid="content-nav">
        {SECTIONS.map((s) => {
          const to = `${CONTENT_BASE}/${s.path}`;
          const active = pathname === to || pathname.startsWith(`${to}/`);
          return (
            <Button
              key={s.path}
              component={Link}
              to={to}
              size="compact-sm"
              variant={active ? 'light' : 'subtle'}
              aria-current={active ? 'page' : undefined}
              data-testid={`content-nav-${s.path}`}
            >
              {t(s.label)}
            </Button>
          );
        })}
      </Group>
      <Outlet />
    </Stack>
  );
}

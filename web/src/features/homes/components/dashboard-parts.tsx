/** The pieces every role's dashboard is made of: panels that load on their own, numbers, shortcuts. */
import { Alert, Anchor, Box, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describeApiError } from '../../../lib/form-errors';
import { formatDisplayDate, formatNumber } from '../../../lib/format';
import { useHomesT } from '../i18n';

/** A titled panel; while its call runs it shows a loader, when it fails the reason in words. */
export function Panel<T>({
  title,
  query,
  testId,
  children,
}: {
  title: string;
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending'>;
  testId: string;
  children: (data: T) => ReactNode;
}) {
  const t = useHomesT();
  const { t: anyT } = useTranslation();
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-label={title} data-testid={testId}>
      <Stack gap="sm">
        <Text fw={600} component="h2" fz="lg" m={0}>
          {title}
        </Text>
        {query.isPending ? (
          <Loader size="sm" aria-label={anyT('app.loading')} />
        ) : query.error ? (
          <Alert color="red" variant="light" role="alert">
            {t('homes.loadFailed', { message: describeApiError(query.error, anyT) })}
          </Alert>
        ) : (
          // A table wider than a phone scrolls inside its panel; the page itself never scrolls sideways.
          <Box style={{ overflowX: 'auto' }} miw={0}>
            {children(query.data as T)}
          </Box>
        )}
      </Stack>
    </Paper>
  );
}

/** One number with its label; a link when it leads to the screen that deals with it. */
export function Stat({
  label,
  value,
  to,
  testId,
  alert = false,
}: {
  label: string;
  value: number | undefined;
  to?: string;
  testId: string;
  alert?: boolean;
}) {
  const { i18n } = useTranslation();
  const number = value === undefined ? '—' : formatNumber(value, i18n.language === 'en' ? 'en' : 'ru');
  const body = (
    <Stack gap={2}>
      <Text fz={28} fw={700} lh={1.1} c={alert && value ? 'red' : undefined} data-testid={testId}>
        {number}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
  return (
    <Paper withBorder radius="md" p="md">
      {to ? (
        <Anchor component={Link} to={to} underline="never" c="inherit">
          {body}
        </Anchor>
      ) : (
        body
      )}
    </Paper>
  );
}

export function Stats({ children }: { children: ReactNode }) {
  return <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>{children}</SimpleGrid>;
}

/** Links to the role's main screens (`testId` marks one that tests and browser tests follow). */
export function Shortcuts({ links }: { links: { to: string; label: string; testId?: string }[] }) {
  const t = useHomesT();
  return (
    <Paper withBorder radius="md" p="lg" component="nav" aria-label={t('homes.shortcuts')}>
      <Stack gap="sm">
        <Text fw={600} component="h2" fz="lg" m={0}>
          {t('homes.shortcuts')}
        </Text>
        <Group gap="lg" data-testid="home-shortcuts">
          {links.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} fw={500} data-testid={link.testId}>
              {link.label}
            </Anchor>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}

/** A diagnostic's window as days: "01.03.2026 — 05.03.2026", one day when it fits in one. */
export function windowText(startsAt: string, endsAt: string, t: ReturnType<typeof useHomesT>): string {
  const from = formatDisplayDate(new Date(startsAt));
  const till = formatDisplayDate(new Date(endsAt));
  return from === till ? from : t('homes.window', { from, till });
}

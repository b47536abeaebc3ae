/** How a report tab says it is loading, failed (by the error's code) or has nothing to show. */
import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { useReportsT } from '../locales';

export function ReportLoading() {
  const { t } = useReportsT();
  return (
    <Group gap="sm" role="status" data-testid="report-loading">
      <Loader size="sm" />
      <Text c="dimmed">{t('reports.state.loading')}</Text>
    </Group>
  );
}

export function ReportError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useReportsT();
  const text =
    error instanceof ApiError && error.status === 403
      ? t('reports.state.forbidden')
      : error instanceof ApiError && error.status === 404
        ? t('reports.state.notFound')
        : t('reports.state.failed', { message: describeApiError(error, t) });
  return (
    <Alert color="red" role="alert" data-testid="report-error">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{text}</Text>
        {onRetry && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t('reports.state.retry')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}

export function ReportEmpty({ children }: { children?: ReactNode }) {
  const { t } = useReportsT();
  return (
    <Text c="dimmed" data-testid="report-empty">
      {children ?? t('reports.state.empty')}
    </Text>
  );
}

/** The three states of a report query, or its content. */
export function ReportQueryView<T>({
  query,
  children,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean; refetch: () => unknown };
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ReportError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending || query.data === undefined) return <ReportLoading />;
  return <>{children(query.data)}</>;
}

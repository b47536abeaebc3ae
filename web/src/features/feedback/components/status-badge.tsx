import { Badge } from '@mantine/core';
import type { FeedbackStatus } from '@attesta/contract';
import { useFeedbackT } from '../locales';

const COLORS: Record<FeedbackStatus, string> = { new: 'blue', in_progress: 'orange', answered: 'green' };

/** A message's status in words. */
export function FeedbackStatusBadge({ status }: { status: FeedbackStatus }) {
  const t = useFeedbackT();
  return (
    <Badge color={COLORS[status]} variant="light">
      {t.status(status)}
    </Badge>
  );
}

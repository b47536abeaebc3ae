/**
 * A chart with its caption and a text alternative: the drawing is an image for assistive
 * technology, named by a sentence that gives its figures; the tables beside it hold the numbers.
 */
import '@mantine/charts/styles.css';
import { Paper, Text } from '@mantine/core';
import { useId, type ReactNode } from 'react';

export function ChartFigure({
  title,
  description,
  summary,
  testId,
  children,
}: {
  title: string;
  description?: ReactNode;
  /** What the chart shows, in words (its accessible name). */
  summary: string;
  testId: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Paper component="figure" withBorder p="md" m={0} aria-labelledby={id} data-testid={testId}>
      <Text id={id} component="figcaption" fw={600} mb="xs">
        {title}
      </Text>
      {description && (
        <Text size="sm" c="dimmed" mb="sm">
          {description}
        </Text>
      )}
      <div role="img" aria-label={summary} data-testid={`${testId}-chart`}>
        {children}
      </div>
    </Paper>
  );
}

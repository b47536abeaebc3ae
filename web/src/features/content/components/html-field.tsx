/**
 * An html text of a subject test (procedure, instruction): the markup in a text area beside a live
 * preview rendered as the participant's page renders it (sanitised, formulas by KaTeX).
 */
import { Box, Input, Paper, SimpleGrid, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useId } from 'react';
import { RichHtml } from '../../../components/answers/rich-html';
import { useContentT } from '../locales';

export function HtmlField({
  label,
  value,
  onChange,
  error,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  testId: string;
}) {
  const t = useContentT();
  const previewId = useId();
  const [shown] = useDebouncedValue(value, 200);
  return (
    <Input.Wrapper label={label} description={t('form.htmlHint')} error={error}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" mt={4}>
        <Textarea
          aria-label={`${label}: ${t('form.html')}`}
          rows={8}
          resize="vertical"
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={previewId}
          data-testid={`${testId}-html`}
        />
        <Paper withBorder p="sm" radius="sm" aria-label={`${label}: ${t('form.preview')}`} role="region">
          <Text size="xs" c="dimmed" mb={4} id={previewId}>
            {t('form.preview')}
          </Text>
          {shown.trim() ? (
            <Box data-testid={`${testId}-preview`}>
              <RichHtml html={shown} className="task-html" />
            </Box>
          ) : (
            <Text size="sm" c="dimmed">
              {t('form.previewEmpty')}
            </Text>
          )}
        </Paper>
      </SimpleGrid>
    </Input.Wrapper>
  );
}

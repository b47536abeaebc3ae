/**
 * An html text of a subject test (procedure, instruction): the task editor's rich-text field
 * (tiptap: formatting, lists, tables, links, formulas, an html source view; sanitised on every
 * change), loaded with the form, beside a preview rendered as the participant's page renders it.
 */
import { Loader, Paper, SimpleGrid, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Suspense } from 'react';
import { lazyPage } from '../../../components/ui/lazy-page';
import { RichHtml } from '../../../components/answers/rich-html';
import { useContentT } from '../locales';

const RichTextField = lazyPage(() => import('../task-editor/components/rich-text-field'), 'RichTextField');

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
  const [shown] = useDebouncedValue(value, 200);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
      <Suspense fallback={<Loader size="sm" />}>
        <RichTextField
          label={label}
          description={t('form.htmlHint')}
          value={value}
          onChange={onChange}
          error={error}
          testId={testId}
          minHeight={140}
        />
      </Suspense>
      <Paper withBorder p="sm" radius="sm" role="region" aria-label={`${label}: ${t('form.preview')}`}>
        <Text size="xs" c="dimmed" mb={4}>
          {t('form.preview')}
        </Text>
        {shown.trim() ? (
          <div data-testid={`${testId}-preview`}>
            <RichHtml html={shown} className="task-html" />
          </div>
        ) : (
          <Text size="sm" c="dimmed">
            {t('form.previewEmpty')}
          </Text>
        )}
      </Paper>
    </SimpleGrid>
  );
}

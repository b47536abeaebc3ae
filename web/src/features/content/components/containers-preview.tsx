/**
 * A container version as the participant sees it: the runner's sandboxed frame (shared
 * components/html-container) opened by a signed link made for the admin, told an answer type of
 * the admin's choice, with the answer the container gives shown below.
 */
import type { AdminHtmlContainer, TaskAnswerType } from '@attesta/contract';
import { Code, Group, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { HtmlContainerFrame } from '../../../components/html-container/html-container-frame';
import { containerPreviewQuery } from '../api/containers';
import { useLabels } from '../hooks/use-labels';
import { useContainersT } from './containers-locales';
import { LoadError } from './load-error';

export function ContainerPreview({ container }: { container: AdminHtmlContainer }) {
  const t = useContainersT();
  const labels = useLabels();
  const [version, setVersion] = useState<number>(container.currentVersion);
  const [answerType, setAnswerType] = useState<TaskAnswerType>('short_text');
  const [answer, setAnswer] = useState<unknown>(undefined);
  const preview = useQuery(containerPreviewQuery(container.id, version));
  const hintId = `container-preview-hint-${container.id}`;

  return (
    <Paper withBorder p="md" data-testid="container-preview">
      <Stack gap="sm">
        <Title order={3}>{t('previewTitle', { name: container.name })}</Title>
        <Text size="sm" c="dimmed" id={hintId}>
          {t('previewHint')}
        </Text>
        <Group grow align="flex-start">
          <Select
            label={t('version')}
            value={String(version)}
            allowDeselect={false}
            onChange={(v) => {
              if (!v) return;
              setVersion(Number(v));
              setAnswer(undefined);
            }}
            data={container.versions.map((v) => ({
              value: String(v.version),
              label: t('versionOption', { n: v.version, entry: v.entry, count: v.fileCount }),
            }))}
            data-testid="container-preview-version"
          />
          <Select
            label={t('answerType')}
            description={t('answerTypeHint')}
            value={answerType}
            allowDeselect={false}
            onChange={(v) => {
              if (!v) return;
              setAnswerType(v as TaskAnswerType);
              setAnswer(undefined);
            }}
            data={labels.answerTypeOptions}
            data-testid="container-preview-type"
          />
        </Group>
        {preview.isPending ? (
          <Group gap="sm" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('loading')}</Text>
          </Group>
        ) : preview.isError ? (
          <LoadError error={preview.error} onRetry={() => void preview.refetch()} />
        ) : (
          <HtmlContainerFrame
            key={`${preview.data.version}:${answerType}`}
            src={preview.data.url}
            title={t('frameTitle', { name: container.name })}
            describedBy={hintId}
            answerType={answerType}
            content={{}}
            value={answer ?? null}
            readOnly={false}
            onChange={setAnswer}
          />
        )}
        <Text size="sm" fw={600}>
          {t('answer')}
        </Text>
        {answer === undefined ? (
          <Text size="sm" c="dimmed" data-testid="container-preview-answer">
            {t('noAnswer')}
          </Text>
        ) : (
          <Code block data-testid="container-preview-answer">
            {JSON.stringify(answer)}
          </Code>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * `/admin/content/containers`: the interactive containers (html containers) — upload one as a zip,
 * upload a new version of one, and preview a version in the runner's sandboxed frame. Tasks get
 * their container in the task editor.
 */
import { CONTAINER_MAX_BYTES, type AdminHtmlContainer } from '@attesta/contract';
import { Alert, Button, FileInput, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError, isSessionGone } from '../../../lib/api-client';
import { formatDisplayDateTime } from '../../../lib/format';
import { describeApiError } from '../../../lib/form-errors';
import { containerKeys, containersQuery, uploadContainer, uploadContainerVersion } from '../api/containers';
import { useContainersT } from './containers-locales';
import { ContainerPreview } from './containers-preview';

const MB = CONTAINER_MAX_BYTES / 1024 / 1024;

type ContainersT = ReturnType<typeof useContainersT>;

/** What is wrong with the chosen file before anything is sent, or null. */
function fileProblem(file: File | null, t: ContainersT): string | null {
  if (!file) return t('noFile');
  if (!/\.zip$/i.test(file.name)) return t('notZip');
  if (file.size > CONTAINER_MAX_BYTES) return t('tooLarge', { mb: MB });
  return null;
}

/** The refusal in words, with the refused file named when the server named one. */
function useUploadError() {
  const t = useContainersT();
  const { t: appT } = useTranslation();
  return (error: unknown): string | null => {
    if (isSessionGone(error)) return null;
    const text = describeApiError(error, appT);
    const name = error instanceof ApiError ? error.fieldErrors[0]?.params?.name : undefined;
    return name === undefined ? text : `${text} ${t('refusedFile', { name })}`;
  };
}

/** The fields and file of an upload, its checks and its error. */
function useUploadForm(isNew: boolean) {
  const t = useContainersT();
  const describe = useUploadError();
  const [name, setName] = useState('');
  const [entry, setEntry] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ name?: string; file?: string; form?: string }>({});

  const submit = async (send: (file: File) => Promise<AdminHtmlContainer>) => {
    const fileError = fileProblem(file, t) ?? undefined;
    const nameError = isNew && !name.trim() ? t('noName') : undefined;
    setErrors({ name: nameError, file: fileError });
    if (fileError || nameError) return null;
    try {
      return await send(file!);
    } catch (e) {
      const form = describe(e);
      if (form) setErrors({ form });
      return null;
    }
  };

  const fields = (testId: string) => (
    <>
      {errors.form && (
        <Alert color="red" role="alert" data-testid={`${testId}-error`}>
          {errors.form}
        </Alert>
      )}
      <Group grow align="flex-start">
        <TextInput
          label={isNew ? t('name') : t('rename')}
          withAsterisk={isNew}
          value={name}
          maxLength={300}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          data-testid={`${testId}-name`}
        />
        <TextInput
          label={t('entry')}
          description={t('entryHint')}
          placeholder="index.html"
          value={entry}
          maxLength={200}
          onChange={(e) => setEntry(e.currentTarget.value)}
          data-testid={`${testId}-entry`}
        />
      </Group>
      <FileInput
        label={t('file')}
        placeholder={t('filePlaceholder')}
        withAsterisk
        accept=".zip,application/zip"
        value={file}
        onChange={(f) => {
          setFile(f);
          setErrors((e) => ({ ...e, file: undefined }));
        }}
        clearable
        error={errors.file}
        data-testid={`${testId}-file`}
      />
    </>
  );

  const reset = () => {
    setName('');
    setEntry('');
    setFile(null);
    setErrors({});
  };

  return { name, entry, submit, fields, reset };
}

function UploadForm() {
  const t = useContainersT();
  const queryClient = useQueryClient();
  const form = useUploadForm(true);
  const send = async () => {
    const created = await form.submit((file) =>
      uploadContainer(file, { name: form.name, entry: form.entry }),
    );
    if (!created) return;
    form.reset();
    notifications.show({ color: 'green', message: t('uploaded', { name: created.name }) });
    await queryClient.invalidateQueries({ queryKey: containerKeys.all });
  };
  return (
    <Paper withBorder p="md" data-testid="container-upload">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('uploadTitle')}
        </Title>
        {form.fields('container-upload')}
        <Group>
          <LoadingButton onClick={send} data-testid="container-upload-submit">
            {t('upload')}
          </LoadingButton>
        </Group>
      </Stack>
    </Paper>
  );
}

function NewVersionModal({ container, onClose }: { container: AdminHtmlContainer; onClose: () => void }) {
  const t = useContainersT();
  const queryClient = useQueryClient();
  const form = useUploadForm(false);
  const send = async () => {
    const updated = await form.submit((file) =>
      uploadContainerVersion(container.id, file, { name: form.name, entry: form.entry }),
    );
    if (!updated) return;
    notifications.show({
      color: 'green',
      message: t('versionUploaded', { n: updated.currentVersion, name: updated.name }),
    });
    await queryClient.invalidateQueries({ queryKey: containerKeys.all });
    onClose();
  };
  return (
    <Modal opened onClose={onClose} title={t('newVersionTitle', { name: container.name })} size="lg">
      <Stack gap="sm" data-testid="container-version">
        <Text size="sm" c="dimmed">
          {t('newVersionHint')}
        </Text>
        {form.fields('container-version')}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <LoadingButton onClick={send} data-testid="container-version-submit">
            {t('upload')}
          </LoadingButton>
        </Group>
      </Stack>
    </Modal>
  );
}

export function ContainersPage() {
  const t = useContainersT();
  const containers = useQuery(containersQuery);
  const [previewId, setPreviewId] = useState<number | null>(null);
  const [versionOf, setVersionOf] = useState<AdminHtmlContainer | null>(null);
  const previewed = containers.data?.find((c) => c.id === previewId) ?? null;

  const columns: Column<AdminHtmlContainer>[] = [
    { key: 'id', header: 'ID', render: (c) => c.id, csv: (c) => c.id },
    { key: 'name', header: t('name'), render: (c) => c.name, csv: (c) => c.name },
    {
      key: 'version',
      header: t('version'),
      render: (c) => <span data-testid={`container-version-${c.id}`}>{c.currentVersion}</span>,
      csv: (c) => c.currentVersion,
    },
    { key: 'entry', header: t('entry'), render: (c) => c.entry, csv: (c) => c.entry },
    { key: 'tasks', header: t('tasks'), render: (c) => c.taskCount, csv: (c) => c.taskCount },
    {
      key: 'created',
      header: t('created'),
      render: (c) => formatDisplayDateTime(new Date(c.versions[0]?.createdAt ?? c.createdAt)),
      csv: (c) => formatDisplayDateTime(new Date(c.versions[0]?.createdAt ?? c.createdAt)),
    },
    {
      key: 'actions',
      header: '',
      render: (c) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant={previewId === c.id ? 'filled' : 'light'}
            onClick={() => setPreviewId(previewId === c.id ? null : c.id)}
            aria-pressed={previewId === c.id}
            data-testid={`container-preview-${c.id}`}
          >
            {t('preview')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setVersionOf(c)}
            data-testid={`container-new-version-${c.id}`}
          >
            {t('newVersion')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle>{t('title')}</PageTitle>
      <Text size="sm" c="dimmed" maw={900}>
        {t('hint')}
      </Text>
      <UploadForm />
      <Title order={2} size="h3">
        {t('list')}
      </Title>
      {containers.data?.length === 0 ? (
        <Text c="dimmed" data-testid="containers-empty">
          {t('empty')}
        </Text>
      ) : (
        <RowsTable
          caption={t('list')}
          rows={containers.data}
          error={containers.error}
          onRetry={() => void containers.refetch()}
          columns={columns}
          rowKey={(c) => c.id}
          testId="containers-table"
        />
      )}
      {previewed && (
        <ContainerPreview key={`${previewed.id}:${previewed.currentVersion}`} container={previewed} />
      )}
      {versionOf && <NewVersionModal container={versionOf} onClose={() => setVersionOf(null)} />}
    </Stack>
  );
}

/**
 * `/admin/roster` and `/coordinator/roster`: students with their ОО, school, building and class from
 * one spreadsheet (docs/roster.md). The page says what the file holds, offers the templates, checks
 * a file by a dry run (counts in words, errors by row and column with texts chosen by their code)
 * and imports it, after a confirmation, only once a check of that same file found no errors.
 */
import {
  ROSTER_COLUMNS,
  ROSTER_ROW_ERROR_CODES,
  type RosterColumn,
  type RosterCounts,
} from '@attesta/contract';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { useDownload } from '../../../components/data-table/use-download';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { apiClient, ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import {
  importRoster,
  rosterTemplate,
  type RosterImportAnswer,
  type RosterRowErrorView,
  type RosterTemplateFormat,
} from '../api/roster';
import { useRosterT } from '../locales';

export type RosterRole = 'admin' | 'coordinator';

/** The columns a file must have (docs/roster.md); the others may be left out. */
const REQUIRED: ReadonlySet<RosterColumn> = new Set(['oo', 'school', 'grade', 'class', 'surname', 'name']);
const KINDS = [
  'oo',
  'schools',
  'buildings',
  'classes',
  'students',
] as const satisfies readonly (keyof RosterCounts)[];
const EXTENSIONS = ['xlsx', 'csv'];
const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

const isColumn = (value: string): value is RosterColumn =>
  (ROSTER_COLUMNS as readonly string[]).includes(value);
const isRowCode = (code: string) => (ROSTER_ROW_ERROR_CODES as readonly string[]).includes(code);

type T = ReturnType<typeof useRosterT>;

/** A refusal of the whole file in words, by its code (never the server's English message). */
function fileErrorText(error: unknown, t: T, appT: Parameters<typeof describeApiError>[1]): string {
  if (!(error instanceof ApiError)) return describeApiError(error, appT);
  if (error.code === 'validation_failed') {
    const missing = error.fieldErrors
      .map((f) => /^header\.(\w+)$/.exec(f.path)?.[1])
      .filter((c): c is RosterColumn => c !== undefined && isColumn(c));
    if (missing.length)
      return t('fileErrors.missingColumns', {
        columns: missing.map((c) => `«${t(`columns.${c}.name`)}»`).join(', '),
      });
    return t('fileErrors.validation_failed');
  }
  if (error.status === 413) return t('fileErrors.payload_too_large');
  if (error.status === 403) return t('fileErrors.forbidden');
  if (error.status === 409) return t('fileErrors.conflict');
  if (['unsupported_format', 'too_many_rows', 'no_file'].includes(error.code))
    return t(`fileErrors.${error.code}`);
  return describeApiError(error, appT);
}

function CountsTable({ answer, done, t }: { answer: RosterImportAnswer; done: boolean; t: T }) {
  return (
    <Stack gap={4}>
      <Table withTableBorder maw={480} data-testid="roster-counts">
        <Table.Caption>{t('countsCaption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('kind')}</Table.Th>
            <Table.Th>{done ? t('created') : t('willCreate')}</Table.Th>
            <Table.Th>{done ? t('updated') : t('willUpdate')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {KINDS.map((kind) => (
            <Table.Tr key={kind} data-testid={`roster-count-${kind}`}>
              <Table.Th scope="row">{t(`kinds.${kind}`)}</Table.Th>
              <Table.Td>{answer.created[kind]}</Table.Td>
              <Table.Td>{answer.updated[kind]}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="roster-unchanged">
        {t(done ? 'unchanged' : 'willUnchanged', { count: answer.unchanged })}
      </Text>
    </Stack>
  );
}

function ErrorsTable({ errors, t }: { errors: RosterRowErrorView[]; t: T }) {
  const columns: Column<RosterRowErrorView>[] = [
    { key: 'row', header: t('row'), render: (e) => e.row, csv: (e) => e.row },
    {
      key: 'column',
      header: t('errorColumn'),
      render: (e) => (e.column ? t(`columns.${e.column}.name`) : t('noColumn')),
      csv: (e) => (e.column ? t(`columns.${e.column}.name`) : ''),
    },
    {
      key: 'error',
      header: t('error'),
      render: (e) => t(`rowErrors.${isRowCode(e.code) ? e.code : 'unknown'}`),
      csv: (e) => t(`rowErrors.${isRowCode(e.code) ? e.code : 'unknown'}`),
    },
  ];
  return (
    <RowsTable
      caption={t('errorsCaption')}
      rows={errors}
      columns={columns}
      rowKey={(e) => `${e.row}-${e.column ?? ''}-${e.code}`}
      exportName="roster-errors"
      testId="roster-errors"
    />
  );
}

function FileRules({ t }: { t: T }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2}>{t('fileTitle')}</Title>
        <Text size="sm">{t('fileRules')}</Text>
        <Table withTableBorder data-testid="roster-columns">
          <Table.Caption>{t('columnsCaption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('column')}</Table.Th>
              <Table.Th>{t('required')}</Table.Th>
              <Table.Th>{t('value')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ROSTER_COLUMNS.map((column) => (
              <Table.Tr key={column}>
                <Table.Th scope="row">{t(`columns.${column}.name`)}</Table.Th>
                <Table.Td>{REQUIRED.has(column) ? t('yes') : t('no')}</Table.Td>
                <Table.Td>{t(`columns.${column}.value`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          {t('matching')}
        </Text>
      </Stack>
    </Paper>
  );
}

function TemplateLinks({ t }: { t: T }) {
  const download = useDownload();
  const get = (format: RosterTemplateFormat) => {
    const { path, query, fileName } = rosterTemplate(format);
    return download(path, query, fileName);
  };
  return (
    <Group gap="xs" aria-label={t('templates')} role="group">
      <LoadingButton variant="light" onClick={() => get('xlsx')} data-testid="roster-template-xlsx">
        {t('templateXlsx')}
      </LoadingButton>
      <LoadingButton variant="light" onClick={() => get('csv')} data-testid="roster-template-csv">
        {t('templateCsv')}
      </LoadingButton>
    </Group>
  );
}

type Busy = 'check' | 'import' | null;

export function RosterImportPage({ role }: { role: RosterRole }) {
  const t = useRosterT();
  const { t: appT } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The last dry run and the file it checked. */
  const [preview, setPreview] = useState<{ file: File; answer: RosterImportAnswer } | null>(null);
  const [result, setResult] = useState<{ file: File; answer: RosterImportAnswer } | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [confirming, setConfirming] = useState(false);

  const choose = (next: File | null) => {
    setFile(next);
    setPreview(null);
    setResult(null);
    setError(null);
    setFileError(next && !EXTENSIONS.includes(extensionOf(next.name)) ? t('wrongType') : null);
  };

  const send = async (dryRun: boolean) => {
    if (!file) return setFileError(t('fileErrors.no_file'));
    if (!EXTENSIONS.includes(extensionOf(file.name))) return setFileError(t('wrongType'));
    setError(null);
    setResult(null);
    if (dryRun) setPreview(null);
    setBusy(dryRun ? 'check' : 'import');
    try {
      const answer = await importRoster(file, dryRun);
      if (dryRun) setPreview({ file, answer });
      else {
        setResult({ file, answer });
        // A real import with errors wrote nothing: its errors are the new check of this file.
        setPreview(answer.errors.length ? { file, answer } : null);
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return apiClient.redirectFor(e);
      setError(fileErrorText(e, t, appT));
    } finally {
      setBusy(null);
    }
  };

  const cleanCheck = preview !== null && preview.file === file && preview.answer.errors.length === 0;
  const canImport = cleanCheck && busy === null && result === null;

  return (
    <Stack gap="md" maw={960}>
      <PageTitle>{t('title')}</PageTitle>
      <Text size="sm">{t('intro')}</Text>
      {role === 'coordinator' ? (
        <Alert color="blue" data-testid="roster-scope">
          {t('coordinatorScope')}
        </Alert>
      ) : (
        <Text size="sm" c="dimmed" data-testid="roster-scope">
          {t('adminScope')}
        </Text>
      )}
      <FileRules t={t} />
      <TemplateLinks t={t} />

      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <FileInput
            label={t('file')}
            placeholder={t('filePlaceholder')}
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={choose}
            error={fileError}
            clearable
            maw={420}
            disabled={busy !== null}
            data-testid="roster-file"
          />
          <Group gap="sm">
            <LoadingButton
              onClick={() => send(true)}
              disabled={!file || busy === 'import'}
              loading={busy === 'check'}
              data-testid="roster-check"
            >
              {t('check')}
            </LoadingButton>
            <Button
              color="green"
              onClick={() => setConfirming(true)}
              disabled={!canImport}
              loading={busy === 'import'}
              data-testid="roster-import"
            >
              {t('import')}
            </Button>
          </Group>
          {!cleanCheck && !result && (
            <Text size="xs" c="dimmed">
              {t('importHint')}
            </Text>
          )}
          {busy && (
            <Group gap="xs" role="status" data-testid="roster-progress">
              <Loader size="sm" />
              <Text size="sm">{busy === 'check' ? t('checking') : t('importing')}</Text>
            </Group>
          )}
          {error && (
            <Alert color="red" role="alert" data-testid="roster-error">
              {error}
            </Alert>
          )}
        </Stack>
      </Paper>

      {result && result.answer.errors.length === 0 && (
        <Paper withBorder p="md" radius="md" data-testid="roster-result">
          <Stack gap="sm">
            <Title order={2}>{t('resultTitle')}</Title>
            <Alert color="green" role="status">
              {t('resultText', { file: result.file.name })}
            </Alert>
            <CountsTable answer={result.answer} done t={t} />
          </Stack>
        </Paper>
      )}

      {preview && (
        <Paper withBorder p="md" radius="md" data-testid="roster-preview">
          <Stack gap="sm">
            <Title order={2}>{t('previewTitle')}</Title>
            {preview.answer.errors.length === 0 ? (
              <Alert color="green" role="status" data-testid="roster-preview-clean">
                {t('previewClean')}
              </Alert>
            ) : (
              <Alert color="red" role="alert" data-testid="roster-preview-errors">
                {result ? t('resultErrors') : t('previewErrors', { count: preview.answer.errors.length })}
              </Alert>
            )}
            {preview.answer.errors.length > 0 && <Text size="sm">{t('previewCountsWithErrors')}</Text>}
            <CountsTable answer={preview.answer} done={false} t={t} />
            {preview.answer.errors.length > 0 && <ErrorsTable errors={preview.answer.errors} t={t} />}
          </Stack>
        </Paper>
      )}

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('confirmTitle')}>
        <Stack>
          <Text>{t('confirmText', { file: file?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button
              color="green"
              onClick={() => {
                setConfirming(false);
                void send(false);
              }}
              data-testid="roster-confirm"
            >
              {t('confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

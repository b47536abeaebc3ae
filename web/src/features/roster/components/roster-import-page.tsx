/**
 * `/admin/roster` and `/coordinator/roster`: students with their ОО, school, building and class, or
 * staff (organizators, coordinators, workers) from one spreadsheet (docs/roster.md), chosen by a
 * switch. The page says what the file holds, offers the templates, checks a file by a dry run
 * (counts in words, errors by row and column with texts chosen by their code) and imports it, after
 * a confirmation, only once a check of that same file found no errors.
 */
import {
  ROSTER_COLUMNS,
  ROSTER_ROW_ERROR_CODES,
  STAFF_COLUMNS,
  STAFF_ROW_ERROR_CODES,
  type RosterCounts,
  type StaffCounts,
} from '@attesta/contract';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
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
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import {
  importRoster,
  rosterTemplate,
  type RosterImportAnswer,
  type RosterRowErrorView,
  type ImportKind,
  type RosterTemplateFormat,
} from '../api/roster';
import { useRosterT } from '../locales';

export type RosterRole = 'admin' | 'coordinator';

/** What each kind of file holds (docs/roster.md): its columns, those it must have, its counts and row codes. */
const KIND_OF: Record<
  ImportKind,
  {
    columns: readonly string[];
    required: ReadonlySet<string>;
    counts: readonly string[];
    rowCodes: readonly string[];
  }
> = {
  students: {
    columns: ROSTER_COLUMNS,
    required: new Set(['oo', 'school', 'grade', 'class', 'surname', 'name']),
    counts: ['oo', 'schools', 'buildings', 'classes', 'students'] satisfies (keyof RosterCounts)[],
    rowCodes: ROSTER_ROW_ERROR_CODES,
  },
  staff: {
    columns: STAFF_COLUMNS,
    required: new Set(['oo', 'school', 'role', 'surname', 'name']),
    counts: [
      'oo',
      'schools',
      'users',
      'organizators',
      'coordinators',
      'workers',
    ] satisfies (keyof StaffCounts)[],
    rowCodes: STAFF_ROW_ERROR_CODES,
  },
};
const EXTENSIONS = ['xlsx', 'csv'];
const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

type T = ReturnType<typeof useRosterT>;

/** The texts of the kind of file shown: the students' at the top of the bundle, the staff's under `staff.`. */
const kindT =
  (t: T, kind: ImportKind): T =>
  (key, options) =>
    t(kind === 'staff' ? `staff.${key}` : key, options);

/** A refusal of the whole file in words, by its code (never the server's English message). */
function fileErrorText(
  error: unknown,
  kind: ImportKind,
  t: T,
  appT: Parameters<typeof describeApiError>[1],
): string {
  if (!(error instanceof ApiError)) return describeApiError(error, appT);
  const tk = kindT(t, kind);
  if (error.code === 'validation_failed') {
    const missing = error.fieldErrors
      .map((f) => /^header\.(\w+)$/.exec(f.path)?.[1])
      .filter((c): c is string => c !== undefined && KIND_OF[kind].columns.includes(c));
    if (missing.length)
      return t('fileErrors.missingColumns', {
        columns: missing.map((c) => `«${tk(`columns.${c}.name`)}»`).join(', '),
      });
    return t('fileErrors.validation_failed');
  }
  if (error.status === 413) return t('fileErrors.payload_too_large');
  if (error.status === 403) return tk('fileErrors.forbidden');
  if (error.status === 409) return tk('fileErrors.conflict');
  if (error.code === 'too_many_rows') return tk('fileErrors.too_many_rows');
  if (['unsupported_format', 'no_file'].includes(error.code)) return t(`fileErrors.${error.code}`);
  return describeApiError(error, appT);
}

function CountsTable({
  answer,
  done,
  kind,
  t,
}: {
  answer: RosterImportAnswer;
  done: boolean;
  kind: ImportKind;
  t: T;
}) {
  const tk = kindT(t, kind);
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
          {KIND_OF[kind].counts.map((what) => (
            <Table.Tr key={what} data-testid={`roster-count-${what}`}>
              <Table.Th scope="row">{tk(`kinds.${what}`)}</Table.Th>
              <Table.Td>{answer.created[what]}</Table.Td>
              <Table.Td>{answer.updated[what]}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="roster-unchanged">
        {tk(done ? 'unchanged' : 'willUnchanged', { count: answer.unchanged })}
      </Text>
    </Stack>
  );
}

function ErrorsTable({ errors, kind, t }: { errors: RosterRowErrorView[]; kind: ImportKind; t: T }) {
  const tk = kindT(t, kind);
  const known = (c: string | undefined) => c !== undefined && KIND_OF[kind].columns.includes(c);
  const message = (e: RosterRowErrorView) =>
    tk(`rowErrors.${KIND_OF[kind].rowCodes.includes(e.code) ? e.code : 'unknown'}`);
  const columns: Column<RosterRowErrorView>[] = [
    { key: 'row', header: t('row'), render: (e) => e.row, csv: (e) => e.row },
    {
      key: 'column',
      header: t('errorColumn'),
      render: (e) => (known(e.column) ? tk(`columns.${e.column}.name`) : t('noColumn')),
      csv: (e) => (known(e.column) ? tk(`columns.${e.column}.name`) : ''),
    },
    {
      key: 'error',
      header: t('error'),
      render: message,
      csv: message,
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

function FileRules({ kind, t }: { kind: ImportKind; t: T }) {
  const tk = kindT(t, kind);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2}>{t('fileTitle')}</Title>
        <Text size="sm">{tk('fileRules')}</Text>
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
            {KIND_OF[kind].columns.map((column) => (
              <Table.Tr key={column}>
                <Table.Th scope="row">{tk(`columns.${column}.name`)}</Table.Th>
                <Table.Td>{KIND_OF[kind].required.has(column) ? t('yes') : t('no')}</Table.Td>
                <Table.Td>{tk(`columns.${column}.value`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          {tk('matching')}
        </Text>
      </Stack>
    </Paper>
  );
}

function TemplateLinks({ kind, t }: { kind: ImportKind; t: T }) {
  const download = useDownload();
  const get = (format: RosterTemplateFormat) => {
    const { path, query, fileName } = rosterTemplate(format, kind);
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
  const [kind, setKind] = useState<ImportKind>('students');
  return (
    <Stack gap="md" maw={960}>
      <PageTitle>{t('title')}</PageTitle>
      <SegmentedControl
        aria-label={t('kindLabel')}
        value={kind}
        onChange={(value) => setKind(value === 'staff' ? 'staff' : 'students')}
        data={[
          { value: 'students', label: t('kindStudents') },
          { value: 'staff', label: t('kindStaff') },
        ]}
        maw={420}
        data-testid="roster-kind"
      />
      {/* A new kind starts afresh: no file, check or result of the other carries over. */}
      <ImportPanel key={kind} kind={kind} role={role} />
    </Stack>
  );
}

function ImportPanel({ kind, role }: { kind: ImportKind; role: RosterRole }) {
  const t = useRosterT();
  const tk = kindT(t, kind);
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
      const answer = await importRoster(file, dryRun, kind);
      if (dryRun) setPreview({ file, answer });
      else {
        setResult({ file, answer });
        // A real import with errors wrote nothing: its errors are the new check of this file.
        setPreview(answer.errors.length ? { file, answer } : null);
      }
    } catch (e) {
      setError(fileErrorText(e, kind, t, appT));
    } finally {
      setBusy(null);
    }
  };

  const cleanCheck = preview !== null && preview.file === file && preview.answer.errors.length === 0;
  const canImport = cleanCheck && busy === null && result === null;

  return (
    <Stack gap="md">
      <Text size="sm">{tk('intro')}</Text>
      {role === 'coordinator' ? (
        <Alert color="blue" data-testid="roster-scope">
          {tk('coordinatorScope')}
        </Alert>
      ) : (
        <Text size="sm" c="dimmed" data-testid="roster-scope">
          {tk('adminScope')}
        </Text>
      )}
      <FileRules kind={kind} t={t} />
      <TemplateLinks kind={kind} t={t} />

      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <FileInput
            label={tk('file')}
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
              <Text size="sm">{busy === 'check' ? t('checking') : tk('importing')}</Text>
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
            <CountsTable answer={result.answer} done kind={kind} t={t} />
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
            <CountsTable answer={preview.answer} done={false} kind={kind} t={t} />
            {preview.answer.errors.length > 0 && (
              <ErrorsTable errors={preview.answer.errors} kind={kind} t={t} />
            )}
          </Stack>
        </Paper>
      )}

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={tk('confirmTitle')}>
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

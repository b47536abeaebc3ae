/**
 * `/admin/content/import`: a QTI package, Moodle XML or GIFT file and an optional subject, uploaded
 * as a queued import. `/admin/content/import/:importId`: its progress, polled until it is done or
 * failed, then the report of each item (outcome in words, notes by their codes in the interface
 * language) with links to the tasks and the draft subject tests made.
 */
import {
  CONTENT_IMPORT_EXTENSIONS,
  CONTENT_IMPORT_MAX_BYTES,
  IMPORT_NOTE_CODES,
  type ContentImportItem,
  type ContentImportNote,
} from '@attesta/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  FileInput,
  Group,
  List,
  Loader,
  NumberInput,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { describeApiError, describeErrorCode } from '../../../lib/form-errors';
import { giveFullMarks, importQuery, startImport } from '../api/content-import';
import { subjectTestQuery } from '../api/subject-tests';
import { useLabels } from '../hooks/use-labels';
import { useContentT, type ContentKey, type ContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { LoadError } from './load-error';
import { SubjectSelect } from './pickers';

/** How often a running import is asked again. */
export const IMPORT_POLL_MS = 1000;

const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

export function ImportPage() {
  const t = useContentT();
  const { t: appT } = useTranslation();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [subjectId, setSubjectId] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    if (!file) return setFileError(t('import.noFile'));
    if (!(CONTENT_IMPORT_EXTENSIONS as readonly string[]).includes(extensionOf(file.name)))
      return setFileError(t('import.wrongType'));
    if (file.size > CONTENT_IMPORT_MAX_BYTES) return setFileError(t('import.tooLarge'));
    try {
      const { importId } = await startImport(file, subjectId);
      navigate(`${CONTENT_BASE}/import/${importId}`);
    } catch (e) {
      setError(describeApiError(e, appT));
    }
  };

  return (
    <Stack gap="md" maw={760}>
      <PageTitle>{t('import.title')}</PageTitle>
      <Text size="sm" c="dimmed">
        {t('import.hint')}
      </Text>
      {error && (
        <Alert color="red" role="alert" data-testid="import-error">
          {error}
        </Alert>
      )}
      <FileInput
        label={t('import.file')}
        placeholder={t('import.filePlaceholder')}
        withAsterisk
        accept={CONTENT_IMPORT_EXTENSIONS.map((e) => `.${e}`).join(',')}
        value={file}
        onChange={(f) => {
          setFile(f);
          setFileError(null);
        }}
        clearable
        error={fileError}
        aria-invalid={Boolean(fileError) || undefined}
        data-testid="import-file"
      />
      <SubjectSelect
        label={t('import.subject')}
        description={t('import.subjectHint')}
        clearable
        value={subjectId}
        onChange={setSubjectId}
        data-testid="import-subject"
      />
      <Group>
        <LoadingButton onClick={submit} data-testid="import-start">
          {t('import.start')}
        </LoadingButton>
      </Group>
    </Stack>
  );
}

const OUTCOME_COLOR: Record<string, string> = { imported: 'green', converted: 'yellow', refused: 'red' };

const NOTE_CODES = new Set<string>(IMPORT_NOTE_CODES);

/** A note of the report as shown: its text in the interface language, and the English one when that is all there is. */
interface ShownNote {
  text: string;
  english?: string;
}

/**
 * The notes of an item in the interface language: each by its code with its params filled in; a
 * code this version does not know (a newer server), or an `unclassified` one, as a generic import
 * note followed by the server's English text, marked as such.
 */
function shownNotes(item: ContentImportItem, t: ContentT, language: string): ShownNote[] {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 6 });
  const shown = (code: ContentImportNote | undefined, english = ''): ShownNote => {
    if (code && code.code !== 'unclassified' && NOTE_CODES.has(code.code)) {
      const values = Object.fromEntries(
        Object.entries(code.params ?? {}).map(([k, v]) => [
          k,
          typeof v === 'number'
            ? number.format(v)
            : // `what`: a field of the task by its word (server's task-issues.ts), said in this language.
              k === 'what'
              ? t(`import.noteWhat.${v}` as ContentKey, { defaultValue: v })
              : // `problem`: what is wrong with that field, by its word (task-issues.ts problemWord).
                k === 'problem'
                ? t(`import.noteProblem.${v}` as ContentKey, { defaultValue: v })
                : v,
        ]),
      );
      // `replace`: param names such as `count` are values here, not i18next options.
      return { text: t(`import.noteCodes.${code.code}` as ContentKey, { replace: values }) };
    }
    return {
      text: `${t('import.noteCodes.unclassified')} (${t('import.noteInEnglish')})`,
      english: english || code?.code || '',
    };
  };
  const count = Math.max(item.notes.length, item.noteCodes.length);
  return Array.from({ length: count }, (_, k) => shown(item.noteCodes[k], item.notes[k]));
}

const noteLine = (n: ShownNote) => (n.english === undefined ? n.text : `${n.text}: ${n.english}`);

/**
 * The fix the report offers where a person can give it (issue 27, Deliver 5): the full marks of a
 * task the import held because its rules did not say them. The answer is the report again.
 */
function FullMarksForm({ importId, item }: { importId: number; item: ContentImportItem }) {
  const t = useContentT();
  const { t: appT } = useTranslation();
  const queryClient = useQueryClient();
  const [points, setPoints] = useState<number | string>('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const taskId = item.taskId!;
  const submit = async () => {
    const value = typeof points === 'number' ? points : Number.NaN;
    if (!(value > 0 && value <= 100)) {
      setError(t('import.fullMarksRange'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const report = await giveFullMarks(importId, taskId, value);
      queryClient.setQueryData(importQuery(importId).queryKey, report);
    } catch (e) {
      setError(describeApiError(e, appT));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap" data-testid={`import-full-marks-${taskId}`}>
      <NumberInput
        size="xs"
        w={110}
        label={t('import.fullMarks')}
        min={0.01}
        max={100}
        decimalScale={2}
        value={points}
        onChange={setPoints}
        error={error}
        data-testid={`import-full-marks-input-${taskId}`}
      />
      <LoadingButton
        size="xs"
        loading={busy}
        onClick={() => void submit()}
        data-testid={`import-full-marks-give-${taskId}`}
      >
        {t('import.giveFullMarks')}
      </LoadingButton>
    </Group>
  );
}

function CreatedTests({ ids }: { ids: number[] }) {
  const t = useContentT();
  const tests = useQueries({ queries: ids.map((id) => subjectTestQuery(id)) });
  return (
    <List data-testid="import-tests">
      {ids.map((id, i) => (
        <List.Item key={id}>
          <Anchor component={Link} to={`${CONTENT_BASE}/tests/${id}`} data-testid={`import-test-${id}`}>
            {tests[i]?.data?.name ?? t('import.testLink', { id })}
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}

export function ImportStatusPage() {
  const t = useContentT();
  const { t: appT, i18n } = useTranslation();
  const labels = useLabels();
  const importId = Number(useParams().importId);
  const status = useQuery({
    ...importQuery(importId),
    enabled: Number.isInteger(importId) && importId > 0,
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === 'done' || q.state.data.status === 'failed')
        ? false
        : IMPORT_POLL_MS,
  });
  const data = status.data;
  const count = (outcome: ContentImportItem['outcome']) =>
    data?.items.filter((i) => i.outcome === outcome).length ?? 0;

  const columns: Column<ContentImportItem>[] = [
    { key: 'source', header: t('import.sourceId'), render: (i) => i.sourceId, csv: (i) => i.sourceId },
    { key: 'title', header: t('import.itemTitle'), render: (i) => i.title, csv: (i) => i.title },
    {
      key: 'type',
      header: t('import.answerType'),
      render: (i) => (i.answerType ? labels.answerType(i.answerType) : t('common.none')),
      csv: (i) => (i.answerType ? labels.answerType(i.answerType) : ''),
    },
    {
      key: 'outcome',
      header: t('import.outcome'),
      render: (i) => (
        <Badge color={OUTCOME_COLOR[i.outcome]} variant="light" data-testid={`import-outcome-${i.sourceId}`}>
          {t(`import.outcomes.${i.outcome}` as ContentKey)}
        </Badge>
      ),
      csv: (i) => t(`import.outcomes.${i.outcome}` as ContentKey),
    },
    {
      key: 'notes',
      header: t('import.notes'),
      render: (i) => {
        const notes = shownNotes(i, t, i18n.language);
        return notes.length ? (
          <List size="xs" spacing={0} data-testid={`import-notes-${i.sourceId}`}>
            {notes.map((n, k) => (
              <List.Item key={k}>
                {n.english === undefined ? (
                  n.text
                ) : (
                  <>
                    {n.text}: <span lang="en">{n.english}</span>
                  </>
                )}
              </List.Item>
            ))}
          </List>
        ) : (
          t('common.none')
        );
      },
      csv: (i) => shownNotes(i, t, i18n.language).map(noteLine).join(' | '),
    },
    {
      key: 'task',
      header: t('import.task'),
      render: (i) =>
        i.taskId === null ? (
          t('common.none')
        ) : (
          <Stack gap={4}>
            <Anchor
              component={Link}
              to={`${CONTENT_BASE}/tasks/${i.taskId}`}
              data-testid={`import-task-${i.taskId}`}
            >
              {t('import.openTask', { id: i.taskId })}
            </Anchor>
            {i.fullMarksNeeded && <FullMarksForm importId={importId} item={i} />}
          </Stack>
        ),
      csv: (i) => i.taskId,
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle>{t('import.statusTitle', { id: importId })}</PageTitle>
      {status.error && <LoadError error={status.error} onRetry={() => void status.refetch()} />}
      {!data && !status.error && <Loader size="sm" />}
      {data && (data.status === 'queued' || data.status === 'running') && (
        <Paper withBorder p="md" radius="md">
          <Group gap="sm" role="status" aria-live="polite" data-testid="import-progress">
            <Loader size="sm" />
            <Text>{t(`import.statuses.${data.status}` as ContentKey)}</Text>
          </Group>
          {data.error && (
            <Text size="sm" c="orange" mt="xs">
              {t('import.retrying', { reason: describeErrorCode(data.error.code, appT) })}
            </Text>
          )}
        </Paper>
      )}
      {data?.status === 'failed' && (
        <Alert color="red" role="alert" title={t('import.statuses.failed')} data-testid="import-failed">
          <Stack gap={4}>
            <Text size="sm">
              {data.error ? describeErrorCode(data.error.code, appT) : describeErrorCode('job_failed', appT)}
            </Text>
            <Text size="sm">{t('import.nothingCreated')}</Text>
          </Stack>
        </Alert>
      )}
      {data?.status === 'done' && (
        <Stack gap="md" data-testid="import-done">
          <Alert color="green" role="status" title={t('import.statuses.done')}>
            {t('import.summary', {
              imported: count('imported'),
              converted: count('converted'),
              refused: count('refused'),
            })}
          </Alert>
          <Title order={2}>{t('import.tests')}</Title>
          {data.subjectTestIds.length ? (
            <CreatedTests ids={data.subjectTestIds} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('import.noTests')}
            </Text>
          )}
          <RowsTable
            caption={t('import.report')}
            rows={data.items}
            columns={columns}
            rowKey={(i) => `${i.file ?? ''}:${i.sourceId}-${i.taskId ?? 'x'}`}
            exportName={`import-${importId}`}
            testId="import-report"
          />
        </Stack>
      )}
      {(data?.status === 'done' || data?.status === 'failed') && (
        <Group>
          <Button component={Link} to={`${CONTENT_BASE}/import`} variant="light" data-testid="import-again">
            {t('import.again')}
          </Button>
          <Button component={Link} to={`${CONTENT_BASE}/tasks`} variant="subtle">
            {t('import.toPool')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/**
 * The admins' feedback inbox (/admin/feedback): messages newest first, filtered by status (in words)
 * and searched by text or sender; one opens in a drawer with its sender, page and file, to be taken
 * in progress or answered (an answer marks it answered and tells the sender).
 */
import {
  Alert,
  Button,
  Drawer,
  Group,
  Loader,
  Pagination,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_STATUSES, type FeedbackStatus, type FeedbackUpdate } from '@attesta/contract';
import { describeApiError } from '../../../lib/form-errors';
import { formatDisplayDateTime } from '../../../lib/format';
import {
  downloadFeedbackFile,
  feedbackDetailQuery,
  feedbackInboxQuery,
  updateFeedback,
} from '../api/feedback';
import { useFeedbackT } from '../locales';
import { FeedbackStatusBadge } from './status-badge';
import { ActionsTh } from '../../../components/ui/actions-header';

const PAGE_SIZE = 25;

function Detail({ id }: { id: number }) {
  const t = useFeedbackT();
  const { t: appT } = useTranslation();
  const queryClient = useQueryClient();
  const detail = useQuery(feedbackDetailQuery(id));
  const [answer, setAnswer] = useState('');
  const [answerError, setAnswerError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: FeedbackUpdate) => updateFeedback(id, body),
    onSuccess: (data) => {
      queryClient.setQueryData(feedbackDetailQuery(id).queryKey, data);
      void queryClient.invalidateQueries({ queryKey: ['feedback', 'inbox'] });
      setAnswer('');
    },
  });
  if (detail.isPending) return <Loader size="sm" aria-label={t('loading')} />;
  if (detail.isError)
    return (
      <Alert color="red" role="alert">
        {describeApiError(detail.error, t.raw)}
      </Alert>
    );
  const m = detail.data;
  const submitAnswer = (e: React.FormEvent) => {
    e.preventDefault();
    if (!answer.trim()) {
      setAnswerError(t('answerRequired'));
      return;
    }
    setAnswerError(null);
    save.mutate({ answer: answer.trim() });
  };
  return (
    <Stack data-testid="feedback-detail">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {formatDisplayDateTime(new Date(m.createdAt))}
        </Text>
        <FeedbackStatusBadge status={m.status} />
      </Group>
      <Text style={{ whiteSpace: 'pre-wrap' }}>{m.text}</Text>
      <Table variant="vertical" withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={140}>{t('sender')}</Table.Th>
            <Table.Td>{m.sender ? m.sender.name : t('deletedSender')}</Table.Td>
          </Table.Tr>
          {m.sender && (
            <>
              <Table.Tr>
                <Table.Th>{t('login')}</Table.Th>
                <Table.Td>{m.sender.login}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('roles')}</Table.Th>
                <Table.Td>{m.sender.roles.map((r) => appT(`roles.${r}` as never)).join(', ')}</Table.Td>
              </Table.Tr>
            </>
          )}
          {m.page && (
            <Table.Tr>
              <Table.Th>{t('page')}</Table.Th>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {m.page}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {m.fileId !== null && (
            <Table.Tr>
              <Table.Th>{t('attachment')}</Table.Th>
              <Table.Td>
                <Button
                  size="compact-xs"
                  variant="light"
                  data-testid="feedback-download"
                  onClick={() => void downloadFeedbackFile(m.fileId!, m.fileName).catch(() => undefined)}
                >
                  {m.fileName ?? t('attachment')}
                </Button>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {save.isError && (
        <Alert color="red" role="alert">
          {describeApiError(save.error, t.raw)}
        </Alert>
      )}
      {m.answer !== null && (
        <Alert color="green" title={t('answer')}>
          {m.answeredBy && (
            <Text size="xs" c="dimmed">
              {t('answeredBy', { name: m.answeredBy.name })}
              {m.answeredAt ? `, ${formatDisplayDateTime(new Date(m.answeredAt))}` : ''}
            </Text>
          )}
          <Text style={{ whiteSpace: 'pre-wrap' }}>{m.answer}</Text>
        </Alert>
      )}
      {m.status === 'new' && (
        <Button
          variant="light"
          onClick={() => save.mutate({ status: 'in_progress' })}
          loading={save.isPending}
        >
          {t('takeInProgress')}
        </Button>
      )}
      {m.status === 'in_progress' && (
        <Button variant="subtle" onClick={() => save.mutate({ status: 'new' })} loading={save.isPending}>
          {t('backToNew')}
        </Button>
      )}
      <form onSubmit={submitAnswer} noValidate>
        <Stack gap="xs">
          <Textarea
            label={t('writeAnswer')}
            value={answer}
            onChange={(e) => setAnswer(e.currentTarget.value)}
            error={answerError}
            maxLength={4000}
            rows={4}
          />
          <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-end' }}>
            {t('sendAnswer')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

export function FeedbackInboxPage() {
  const t = useFeedbackT();
  const [status, setStatus] = useState<FeedbackStatus | 'all'>('new');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<number | null>(null);
  const list = useQuery({
    ...feedbackInboxQuery({
      page,
      pageSize: PAGE_SIZE,
      filter: { ...(status === 'all' ? {} : { status }), ...(debounced ? { search: debounced } : {}) },
    }),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <Title order={1}>{t('inboxTitle')}</Title>
      <Group align="flex-end">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="feedback-status-label">
            {t('statusFilter')}
          </Text>
          <SegmentedControl
            aria-labelledby="feedback-status-label"
            value={status}
            onChange={(v) => {
              setStatus(v as FeedbackStatus | 'all');
              setPage(1);
            }}
            data={[
              ...FEEDBACK_STATUSES.map((s) => ({ value: s, label: t.status(s) })),
              { value: 'all', label: t('allStatuses') },
            ]}
          />
        </Stack>
        <TextInput
          label={t('search')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1, minWidth: 200 }}
        />
      </Group>
      {list.isPending ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : list.isError ? (
        <Alert color="red" role="alert">
          {describeApiError(list.error, t.raw)}
        </Alert>
      ) : !list.data.items.length ? (
        <Text c="dimmed">{t('inboxEmpty')}</Text>
      ) : (
        <>
          <Table striped highlightOnHover data-testid="feedback-inbox">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('colDate')}</Table.Th>
                <Table.Th>{t('colSender')}</Table.Th>
                <Table.Th>{t('colText')}</Table.Th>
                <Table.Th>{t('colStatus')}</Table.Th>
                <ActionsTh />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((r) => (
                <Table.Tr key={r.id} data-testid={`feedback-row-${r.id}`}>
                  <Table.Td>{formatDisplayDateTime(new Date(r.createdAt))}</Table.Td>
                  <Table.Td>{r.sender ? r.sender.name : t('deletedSender')}</Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {r.text}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <FeedbackStatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>
                    <Button size="compact-xs" variant="light" onClick={() => setOpenId(r.id)}>
                      {t('open_one')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('total', { count: list.data.total })}
            </Text>
            {list.data.total > PAGE_SIZE && (
              <Pagination value={page} onChange={setPage} total={Math.ceil(list.data.total / PAGE_SIZE)} />
            )}
          </Group>
        </>
      )}
      <Drawer
        opened={openId !== null}
        onClose={() => setOpenId(null)}
        title={t('title')}
        position="right"
        size="lg"
      >
        {openId !== null && <Detail key={openId} id={openId} />}
      </Drawer>
    </Stack>
  );
}

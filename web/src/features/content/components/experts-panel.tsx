/**
 * The «Эксперты» tab of a subject test: who can grade its expert-graded tasks — experts assigned to
 * the test (any grade) and experts of its subject in its grades — whether they suffice for blind
 * double marking, assigning experts (picked by name, searched on the server) and taking one off.
 */
import type { ExpertCoverage, UserListItem } from '@attesta/contract';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
  type OptionsFilter,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExpertCoverageAlert } from '../../../components/expert-coverage';
import { ConfirmAction } from '../../../components/ui/confirm-action';
import { LoadingButton } from '../../../components/ui/loading-button';
import { describeApiError } from '../../../lib/form-errors';
import { addTestExperts, expertKeys, getTestExperts, removeTestExpert, searchExperts } from '../api/experts';
import { contentKeys } from '../api/shared';
import { useContentT } from '../locales';
import { LoadError } from './load-error';

/** The server already searched: show its answer as it is. */
const serverFiltered: OptionsFilter = ({ options }) => options;

const expertLabel = (u: Pick<UserListItem, 'displayName' | 'login'>) =>
  u.displayName && u.displayName !== u.login ? `${u.displayName} (${u.login})` : u.login;

/** Whether the test's coverage is enough: two experts in every grade and nothing waiting. */
export const coverageIsEnough = (c: ExpertCoverage | null | undefined) =>
  !c || (c.experts >= 2 && c.waitingAnswers === 0);

export function ExpertsPanel({ subjectTestId }: { subjectTestId: number }) {
  const t = useContentT();
  const { t: appT } = useTranslation();
  const queryClient = useQueryClient();
  const experts = useQuery({
    queryKey: expertKeys.ofTest(subjectTestId),
    queryFn: ({ signal }) => getTestExperts(subjectTestId, signal),
  });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [picked, setPicked] = useState<UserListItem | null>(null);
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const found = useQuery({
    queryKey: expertKeys.search(debounced),
    queryFn: ({ signal }) => searchExperts(debounced, signal),
    placeholderData: keepPreviousData,
  });
  const already = new Set(
    (experts.data?.experts ?? []).filter((e) => e.via === 'subject_test').map((e) => e.id),
  );
  const options = (found.data ?? []).filter((u) => !already.has(u.id));

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: expertKeys.ofTest(subjectTestId) });
    await queryClient.invalidateQueries({ queryKey: contentKeys.validation(subjectTestId) });
  };
  const add = async () => {
    if (!picked) return;
    setError(null);
    try {
      const next = await addTestExperts(subjectTestId, [picked.id]);
      queryClient.setQueryData(expertKeys.ofTest(subjectTestId), next);
      setNotice(t('experts.added', { name: expertLabel(picked) }));
      setPicked(null);
      setSearch('');
      await refresh();
    } catch (e) {
      setError(t('experts.failed', { message: describeApiError(e, appT) }));
    }
  };

  return (
    <Stack gap="sm" data-testid="experts-panel">
      <Title order={2}>{t('experts.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('experts.intro')}
      </Text>
      {experts.isPending && <Loader size="sm" />}
      {experts.error && <LoadError error={experts.error} onRetry={() => void experts.refetch()} />}
      {experts.data && (
        <>
          {experts.data.coverage.expertTaskPositions.length === 0 ? (
            <Alert color="gray" data-testid="experts-none-needed">
              {t('experts.noExpertTasks')}
            </Alert>
          ) : coverageIsEnough(experts.data.coverage) ? (
            <Alert color="green" role="status" data-testid="experts-enough">
              {t('experts.enough', {
                positions: experts.data.coverage.expertTaskPositions.join(', '),
                count: experts.data.coverage.experts,
              })}
            </Alert>
          ) : (
            <ExpertCoverageAlert items={[experts.data.coverage]} hint="admin" />
          )}
          {notice && (
            <Alert color="green" role="status" withCloseButton onClose={() => setNotice(null)}>
              {notice}
            </Alert>
          )}
          {error && (
            <Alert color="red" role="alert" data-testid="experts-error">
              {error}
            </Alert>
          )}
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select
              label={t('experts.pick')}
              placeholder={t('experts.pickPlaceholder')}
              searchable
              clearable
              filter={serverFiltered}
              searchValue={search}
              onSearchChange={setSearch}
              nothingFoundMessage={t('common.notFound')}
              data={options.map((u) => ({ value: String(u.id), label: expertLabel(u) }))}
              value={picked ? String(picked.id) : null}
              onChange={(v) => setPicked(options.find((u) => String(u.id) === v) ?? null)}
              w={360}
              maw="100%"
              data-testid="experts-pick"
            />
            <LoadingButton onClick={add} disabled={!picked} data-testid="experts-add">
              {t('experts.add')}
            </LoadingButton>
          </Group>
          {experts.data.experts.length === 0 ? (
            <Text c="dimmed" data-testid="experts-empty">
              {t('experts.empty')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={480}>
              <Table striped data-testid="experts-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('experts.name')}</Table.Th>
                    <Table.Th>{t('experts.how')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('experts.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {experts.data.experts.map((e) => (
                    <Table.Tr key={e.id} data-testid={`expert-row-${e.id}`}>
                      <Table.Td>{expertLabel(e)}</Table.Td>
                      <Table.Td>
                        {e.via === 'subject_test' ? (
                          <Badge variant="light" color="grape">
                            {t('experts.viaTest')}
                          </Badge>
                        ) : (
                          <Text size="sm">{t('experts.viaSubject', { grades: e.parallels.join(', ') })}</Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {e.via === 'subject_test' && (
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color="red"
                            onClick={() => setRemoving({ id: e.id, name: expertLabel(e) })}
                            aria-label={t('experts.removeOf', { name: expertLabel(e) })}
                            data-testid={`expert-remove-${e.id}`}
                          >
                            {t('experts.remove')}
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
      {removing && (
        <ConfirmAction
          title={t('experts.removeTitle')}
          question={t('experts.removeConfirm', { name: removing.name })}
          confirmLabel={t('experts.remove')}
          cancelLabel={t('common.cancel')}
          color="red"
          onConfirm={async () => {
            const next = await removeTestExpert(subjectTestId, removing.id);
            queryClient.setQueryData(expertKeys.ofTest(subjectTestId), next);
            await refresh();
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </Stack>
  );
}

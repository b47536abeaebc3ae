/**
 * `/ugnik/area`: the school diagnostics of the schools in the ugnik's area (docs/ugnik.md), a row
 * per diagnostic and school with its state, dates, participants and finished works; read-only. Each
 * row links to the read-only room of that school (`/ugnik/room`).
 */
import type { AreaDiagnosticStatus } from '@attesta/contract';
import { Alert, Anchor, Badge, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { describeApiError } from '../../../lib/form-errors';
import { formatDisplayDate, formatNumber } from '../../../lib/format';
import { getOwnArea, listAreaDiagnostics, ugnikKeys } from '../api/ugnik-api';
import { useUgnikT } from '../i18n';

const STATUS_COLOR: Record<AreaDiagnosticStatus, string> = {
  planned: 'gray',
  active: 'blue',
  finished: 'green',
};

export function UgnikAreaDiagnosticsPage() {
  const t = useUgnikT();
  const { t: common, i18n } = useTranslation();
  const lang = i18n.language?.startsWith('en') ? 'en' : 'ru';
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const list = useQuery({
    queryKey: ugnikKeys.area(debounced),
    queryFn: ({ signal }) => listAreaDiagnostics(debounced, signal),
    placeholderData: keepPreviousData,
  });
  const data = list.data;
  // The number of schools in the area: a line under the caption, left out if it cannot be read.
  const own = useQuery({ queryKey: ugnikKeys.ownArea, queryFn: getOwnArea });
  const schoolCount = own.data?.area?.schoolCount;

  return (
    <Stack gap="md">
      <PageTitle>{data?.area ? t('area.titleOf', { area: data.area.name }) : t('area.title')}</PageTitle>
      <Text c="dimmed">{t('area.caption')}</Text>
      {schoolCount !== undefined && (
        <Text data-testid="area-school-count">
          {t('area.schoolCount', { n: formatNumber(schoolCount, lang) })}
        </Text>
      )}
      {list.error ? (
        <Alert color="red" role="alert">
          {t('area.failed', { message: describeApiError(list.error, common) })}
        </Alert>
      ) : !data ? (
        <Loader size="sm" aria-label={common('app.loading')} />
      ) : !data.area ? (
        <Alert color="orange" data-testid="area-none">
          {t('area.noArea')}
        </Alert>
      ) : (
        <>
          <TextInput
            label={t('common.search')}
            description={t('area.searchHint')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            maw={420}
            data-testid="area-search"
          />
          {data.items.length === 0 ? (
            <Text c="dimmed">{debounced ? t('area.nothingFound') : t('area.empty')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table striped data-testid="area-diagnostics">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('area.diagnostic')}</Table.Th>
                    <Table.Th>{t('area.school')}</Table.Th>
                    <Table.Th>{t('area.status')}</Table.Th>
                    <Table.Th>{t('area.dates')}</Table.Th>
                    <Table.Th>{t('area.participants')}</Table.Th>
                    <Table.Th>{t('area.finished')}</Table.Th>
                    <Table.Th>{t('common.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((d) => (
                    <Table.Tr
                      key={`${d.diagnosticId}:${d.schoolId}`}
                      data-testid={`area-row-${d.diagnosticId}-${d.schoolId}`}
                    >
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {d.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {d.code}
                        </Text>
                      </Table.Td>
                      <Table.Td>{d.schoolName}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[d.status]} variant="light">
                          {t(`area.statuses.${d.status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {formatDisplayDate(new Date(d.startsAt))} — {formatDisplayDate(new Date(d.endsAt))}
                      </Table.Td>
                      <Table.Td>{formatNumber(d.participantCount, lang)}</Table.Td>
                      <Table.Td>{formatNumber(d.finishedCount, lang)}</Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`/ugnik/room?${new URLSearchParams({ diagnosticId: String(d.diagnosticId), schoolId: String(d.schoolId) }).toString()}`}
                          aria-label={t('room.watchOf', { name: d.name, school: d.schoolName })}
                          data-testid={`area-watch-${d.diagnosticId}-${d.schoolId}`}
                          size="sm"
                        >
                          {t('room.watch')}
                        </Anchor>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    </Stack>
  );
}

/**
 * `/ugnik/room?diagnosticId=&schoolId=&classId=`: the ugnik watches a class of a school diagnostic in
 * its area, read-only (docs/ugnik.md). It picks the diagnostic and school from its area's list and
 * the class from that school's classes; the live room itself is the monitoring feature's, passed in
 * by the router (`renderRoom`), since features do not import each other.
 */
import { Alert, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { describeApiError } from '../../../lib/form-errors';
import { listAreaDiagnostics, listClasses, ugnikKeys } from '../api/ugnik-api';
import { useUgnikT } from '../i18n';

export interface WatchedRoom {
  diagnosticId: number;
  classId: number;
}

type Key = 'diagnosticId' | 'schoolId' | 'classId';

export function UgnikAreaRoomPage({ renderRoom }: { renderRoom: (room: WatchedRoom) => ReactNode }) {
  const t = useUgnikT();
  const { t: common } = useTranslation();
  const [params, setParams] = useSearchParams();
  const diagnosticId = Number(params.get('diagnosticId')) || null;
  const schoolId = Number(params.get('schoolId')) || null;
  const classId = Number(params.get('classId')) || null;
  // The room is in the address, so it can be bookmarked and reloaded; a new school drops the class.
  const choose = useCallback(
    (values: Partial<Record<Key, number | null>>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(values)) {
            if (value) next.set(key, String(value));
            else next.delete(key);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const area = useQuery({
    queryKey: ugnikKeys.area(''),
    queryFn: ({ signal }) => listAreaDiagnostics('', signal),
  });
  const classes = useQuery({
    queryKey: ugnikKeys.classes(schoolId ?? 0),
    queryFn: () => listClasses(schoolId!),
    enabled: schoolId !== null,
  });

  const sittings = useMemo(
    () =>
      (area.data?.items ?? []).map((d) => ({
        value: `${d.diagnosticId}:${d.schoolId}`,
        label: `${d.name} (${d.code}) — ${d.schoolName}`,
      })),
    [area.data],
  );
  const chosen = diagnosticId && schoolId ? `${diagnosticId}:${schoolId}` : null;
  const error = area.error ?? classes.error;

  return (
    <Stack gap="md">
      <PageTitle>{t('room.title')}</PageTitle>
      <Text c="dimmed">{t('room.caption')}</Text>
      {error && (
        <Alert color="red" role="alert">
          {t('area.failed', { message: describeApiError(error, common) })}
        </Alert>
      )}
      {area.data && !area.data.area && (
        <Alert color="orange" data-testid="area-none">
          {t('area.noArea')}
        </Alert>
      )}
      <Group align="flex-end">
        <Select
          label={t('room.diagnostic')}
          placeholder={t('room.chooseDiagnostic')}
          data-testid="watch-diagnostic"
          data={
            chosen && !sittings.some((s) => s.value === chosen)
              ? [...sittings, { value: chosen, label: t('room.unknownDiagnostic') }]
              : sittings
          }
          value={chosen}
          onChange={(v) => {
            const [d, s] = (v ?? '').split(':').map(Number);
            choose({ diagnosticId: d || null, schoolId: s || null, classId: null });
          }}
          searchable
          w={480}
          nothingFoundMessage={t('area.nothingFound')}
        />
        <Select
          label={t('room.class')}
          placeholder={t('room.chooseClass')}
          data-testid="watch-class"
          data={(classes.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={classId ? String(classId) : null}
          onChange={(v) => choose({ classId: Number(v) || null })}
          disabled={schoolId === null}
          searchable
          w={220}
          nothingFoundMessage={t('area.nothingFound')}
        />
      </Group>
      {diagnosticId && classId ? (
        <div key={`${diagnosticId}:${classId}`}>{renderRoom({ diagnosticId, classId })}</div>
      ) : (
        <Text c="dimmed">{schoolId ? t('room.pickClass') : t('room.pickDiagnostic')}</Text>
      )}
    </Stack>
  );
}

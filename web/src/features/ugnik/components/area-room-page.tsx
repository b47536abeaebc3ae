/**
 * `/ugnik/room?diagnosticId=&schoolId=&classId=` (or `&buildingId=`): the ugnik watches a class or a
 * whole building of a school diagnostic in its area, read-only (docs/ugnik.md). It picks the
 * diagnostic and school from its area's list and the class or building from that school's; the live
 * room itself is the monitoring feature's, passed in
 * by the router (`renderRoom`), since features do not import each other.
 */
import { Alert, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { describeApiError } from '../../../lib/form-errors';
import { listAreaDiagnostics, listBuildings, listClasses, ugnikKeys } from '../api/ugnik-api';
import { useUgnikT } from '../i18n';

/** One of `classId` and `buildingId`. */
export interface WatchedRoom {
  diagnosticId: number;
  classId?: number;
  buildingId?: number;
}

type Key = 'diagnosticId' | 'schoolId' | 'classId' | 'buildingId';

export function UgnikAreaRoomPage({ renderRoom }: { renderRoom: (room: WatchedRoom) => ReactNode }) {
  const t = useUgnikT();
  const { t: common } = useTranslation();
  const [params, setParams] = useSearchParams();
  const diagnosticId = Number(params.get('diagnosticId')) || null;
  const schoolId = Number(params.get('schoolId')) || null;
  const classId = Number(params.get('classId')) || null;
  const buildingId = classId ? null : Number(params.get('buildingId')) || null;
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
  const rooms = useQuery({
    queryKey: ugnikKeys.rooms(schoolId ?? 0),
    queryFn: async () => {
      const [classes, buildings] = await Promise.all([listClasses(schoolId!), listBuildings(schoolId!)]);
      return { classes: classes.items, buildings: buildings.items };
    },
    enabled: schoolId !== null,
  });
  const roomChoices = useMemo(
    () =>
      [
        {
          group: t('room.classes'),
          items: (rooms.data?.classes ?? []).map((c) => ({ value: `class:${c.id}`, label: c.name })),
        },
        {
          group: t('room.buildings'),
          items: (rooms.data?.buildings ?? []).map((b) => ({
            value: `building:${b.id}`,
            label: t('room.wholeBuilding', { name: b.name }),
          })),
        },
      ].filter((g) => g.items.length > 0),
    [rooms.data, t],
  );

  const sittings = useMemo(
    () =>
      (area.data?.items ?? []).map((d) => ({
        value: `${d.diagnosticId}:${d.schoolId}`,
        label: `${d.name} (${d.code}) — ${d.schoolName}`,
      })),
    [area.data],
  );
  const chosen = diagnosticId && schoolId ? `${diagnosticId}:${schoolId}` : null;
  const error = area.error ?? rooms.error;
  const room = classId ? `class:${classId}` : buildingId ? `building:${buildingId}` : null;

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
            choose({ diagnosticId: d || null, schoolId: s || null, classId: null, buildingId: null });
          }}
          searchable
          w={480}
          nothingFoundMessage={t('area.nothingFound')}
        />
        <Select
          label={t('room.class')}
          placeholder={t('room.chooseClass')}
          data-testid="watch-class"
          data={roomChoices}
          value={room}
          onChange={(v) => {
            const [kind, id] = (v ?? '').split(':');
            choose({
              classId: kind === 'class' ? Number(id) : null,
              buildingId: kind === 'building' ? Number(id) : null,
            });
          }}
          disabled={schoolId === null}
          searchable
          w={280}
          nothingFoundMessage={t('area.nothingFound')}
        />
      </Group>
      {diagnosticId && (classId || buildingId) ? (
        <div key={`${diagnosticId}:${room}`}>
          {renderRoom(classId ? { diagnosticId, classId } : { diagnosticId, buildingId: buildingId! })}
        </div>
      ) : (
        <Text c="dimmed">{schoolId ? t('room.pickClass') : t('room.pickDiagnostic')}</Text>
      )}
    </Stack>
  );
}

/**
 * Пересчёт баллов (issue 28): the conversion tables of each variant's primary scores to one scale
 * (true-score equating), proposed from the current results; the admin adopts them and sets the
 * level cut scores; the adopted version, its cut scores and the participants per level. An ugnik
 * reads them. Method: docs/item-analysis.md, "Equating variants to one scale".
 */
import type { Equating, EquatingTablesDto } from '@attesta/contract';
import { Alert, Badge, Button, Group, NumberInput, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeApiError } from '../../../lib/form-errors';
import { adoptEquating, equating, setCutScores } from '../api/equating';
import { reportKeys } from '../api/reports';
import { DASH, num, percent } from '../lib/format';
import type { ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import { ReportQueryView } from './report-state';

export function EquatingTab({ filters, canAdopt }: { filters: ReportFilterValues; canAdopt: boolean }) {
  const { t } = useReportsT();
  const { diagnosticId, subjectTestId } = filters;
  const ready = diagnosticId !== null && subjectTestId !== null;
  const key = reportKeys.report('equating', { diagnosticId, subjectTestId });
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => equating(diagnosticId!, subjectTestId!, signal),
    enabled: ready,
  });
  if (!ready)
    return (
      <Text c="dimmed" data-testid="equating-choose">
        {t('reports.equating.chooseFirst')}
      </Text>
    );
  return (
    <ReportQueryView query={query}>
      {(data) => <EquatingView data={data} canAdopt={canAdopt} queryKey={key} />}
    </ReportQueryView>
  );
}

function EquatingView({
  data,
  canAdopt,
  queryKey,
}: {
  data: Equating;
  canAdopt: boolean;
  queryKey: readonly unknown[];
}) {
  const { t } = useReportsT();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const adopt = useMutation({
    mutationFn: () => adoptEquating(data.diagnosticId, data.subjectTestId),
    onSuccess: (next) => {
      setError(null);
      client.setQueryData(queryKey, next);
    },
    onError: (e) => setError(describeApiError(e, t)),
  });
  return (
    <Stack gap="lg" data-testid="equating">
      <Text size="sm" c="dimmed">
        {t('reports.equating.about')}
      </Text>
      {data.adopted ? (
        <AdoptedView data={data} canAdopt={canAdopt} queryKey={queryKey} />
      ) : (
        <Alert color="gray" data-testid="equating-not-adopted">
          {t('reports.equating.notAdopted')}
        </Alert>
      )}
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('reports.equating.proposed')}
        </Title>
        {data.proposed ? (
          <>
            <Tables tables={data.proposed} />
            {canAdopt && (
              <Group>
                <Button onClick={() => adopt.mutate()} loading={adopt.isPending} data-testid="equating-adopt">
                  {data.adopted ? t('reports.equating.readopt') : t('reports.equating.adopt')}
                </Button>
              </Group>
            )}
          </>
        ) : (
          <Alert color="yellow" data-testid="equating-unavailable">
            {t(`reports.equating.unavailable.${data.unavailable ?? 'no_calibration'}`)}
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert" data-testid="equating-error">
            {error}
          </Alert>
        )}
      </Stack>
    </Stack>
  );
}

function AdoptedView({
  data,
  canAdopt,
  queryKey,
}: {
  data: Equating;
  canAdopt: boolean;
  queryKey: readonly unknown[];
}) {
  const { t, lang } = useReportsT();
  const client = useQueryClient();
  const adopted = data.adopted!;
  const [cuts, setCuts] = useState({
    basic: adopted.cutScores?.basic ?? '',
    advanced: adopted.cutScores?.advanced ?? '',
    high: adopted.cutScores?.high ?? '',
  } as Record<'basic' | 'advanced' | 'high', number | string>);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      setCutScores(data.diagnosticId, data.subjectTestId, {
        basic: Number(cuts.basic),
        advanced: Number(cuts.advanced),
        high: Number(cuts.high),
      }),
    onSuccess: (next) => {
      setError(null);
      client.setQueryData(queryKey, next);
    },
    onError: (e) => setError(describeApiError(e, t)),
  });
  return (
    <Paper withBorder p="md" data-testid="equating-adopted">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('reports.equating.adoptedTitle', {
            version: adopted.version,
            date: new Date(adopted.adoptedAt).toLocaleString(lang === 'en' ? 'en-GB' : 'ru-RU'),
            who: adopted.adoptedBy ?? DASH,
          })}
        </Title>
        <Text size="sm">
          {t('reports.equating.scale', {
            number: adopted.tables.referenceNumber,
            min: num(adopted.tables.scaleMin, lang),
            max: num(adopted.tables.scaleMax, lang),
          })}
        </Text>
        <Group align="end">
          {(['basic', 'advanced', 'high'] as const).map((level) => (
            <NumberInput
              key={level}
              label={t(`reports.equating.levels.${level}`)}
              value={cuts[level]}
              onChange={(value) => setCuts((c) => ({ ...c, [level]: value }))}
              decimalScale={1}
              readOnly={!canAdopt}
              w={140}
              data-testid={`equating-cut-${level}`}
            />
          ))}
          {canAdopt && (
            <Button onClick={() => save.mutate()} loading={save.isPending} data-testid="equating-save-cuts">
              {t('reports.equating.saveCuts')}
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('reports.equating.cutsHint')}
        </Text>
        {error && (
          <Alert color="red" role="alert" data-testid="equating-cuts-error">
            {error}
          </Alert>
        )}
        {adopted.levels.length > 0 && (
          <Table withTableBorder data-testid="equating-levels">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('reports.equating.level')}</Table.Th>
                <Table.Th>{t('reports.equating.participants')}</Table.Th>
                <Table.Th>{t('reports.equating.share')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {adopted.levels.map((l) => (
                <Table.Tr key={l.level}>
                  <Table.Td>{t(`reports.equating.levels.${l.level}`)}</Table.Td>
                  <Table.Td>{l.participants}</Table.Td>
                  <Table.Td>{percent(l.share * 100, lang)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Text size="sm" fw={500}>
          {t('reports.equating.adoptedTables')}
        </Text>
        <Tables tables={adopted.tables} />
      </Stack>
    </Paper>
  );
}

/** One table per variant: primary score → scaled score ± CSEM. */
function Tables({ tables }: { tables: EquatingTablesDto }) {
  const { t, lang } = useReportsT();
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t('reports.equating.method', {
          model: t(`reports.equating.model.${tables.model}`),
          number: tables.referenceNumber,
        })}
      </Text>
      <Group align="start" gap="md">
        {tables.variants.map((v) => (
          <Paper key={v.variantId} withBorder p="xs" data-testid={`equating-variant-${v.number}`}>
            <Group gap="xs" mb="xs">
              <Text size="sm" fw={500}>
                {t('reports.equating.variant', { number: v.number })}
              </Text>
              <Badge variant="light" color={v.status === 'not_linked' ? 'red' : 'gray'}>
                {t(`reports.equating.status.${v.status}`)}
              </Badge>
            </Group>
            {v.rows.length > 0 && (
              <Table withTableBorder fz="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('reports.equating.primary')}</Table.Th>
                    <Table.Th>{t('reports.equating.scaled')}</Table.Th>
                    <Table.Th>{t('reports.equating.csem')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {v.rows.map((r) => (
                    <Table.Tr key={r.primary}>
                      <Table.Td>{num(r.primary, lang)}</Table.Td>
                      <Table.Td>{num(r.scaled, lang, 1)}</Table.Td>
                      <Table.Td>{num(r.csem, lang, 1)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Paper>
        ))}
      </Group>
    </Stack>
  );
}

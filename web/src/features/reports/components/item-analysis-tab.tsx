/**
 * Анализ заданий: classical statistics of each task (facility, discrimination, α without it), the
 * facility × discrimination plot, the Wright map of abilities against difficulties, the variants'
 * expected scores and their total score distributions, and Cronbach's α. While the figures would
 * be provisional the server withholds them, and the tab says why.
 */
import {
  DIF_MIN_GROUP_SIZE,
  ITEM_ANALYSIS_MIN_PARTICIPANTS,
  type ItemAnalysis,
  type ItemAnalysisTask,
} from '@attesta/contract';
import { BarChart, LineChart, ScatterChart } from '@mantine/charts';
import {
  Alert,
  Badge,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useAnswerTypeLabel } from '../../../components/answers/answer-type-labels';
import { itemAnalysis } from '../api/item-analysis';
import { reportKeys } from '../api/reports';
import { DASH, num, share } from '../lib/format';
import type { ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import { ChartFigure } from './chart-figure';
import { DifMark, DifSection, FigureGuide, ThresholdsTable, VariantWrightMap } from './item-analysis-more';
import { ReportEmpty, ReportQueryView } from './report-state';
import './reports.css';

const VARIANT_COLORS = [
  'attesta.6',
  'orange.6',
  'grape.6',
  'teal.6',
  'red.6',
  'lime.7',
  'indigo.6',
  'pink.6',
];

export function ItemAnalysisTab({ filters }: { filters: ReportFilterValues }) {
  const { t } = useReportsT();
  const { diagnosticId, subjectTestId } = filters;
  const ready = diagnosticId !== null && subjectTestId !== null;
  const query = useQuery({
    queryKey: reportKeys.report('itemAnalysis', { diagnosticId, subjectTestId }),
    queryFn: ({ signal }) => itemAnalysis(diagnosticId!, subjectTestId!, signal),
    enabled: ready,
  });
  if (!ready)
    return (
      <Text c="dimmed" data-testid="items-choose">
        {t('reports.item.chooseFirst')}
      </Text>
    );
  return <ReportQueryView query={query}>{(data) => <ItemAnalysisView data={data} />}</ReportQueryView>;
}

/** "Задание 3", or "Задание 3 / 5" when variants place it differently; the variants when not in all. */
function useTaskLabels(data: ItemAnalysis) {
  const { t } = useReportsT();
  return useMemo(() => {
    const labels = new Map<number, string>();
    for (const task of data.tasks) {
      const positions = new Set<number>();
      const numbers: number[] = [];
      for (const variant of data.variants) {
        const index = variant.taskIds.indexOf(task.taskId);
        if (index >= 0) {
          positions.add(index + 1);
          numbers.push(variant.number);
        }
      }
      const where = [...positions].sort((a, b) => a - b).join(' / ') || DASH;
      const inSome = numbers.length > 0 && numbers.length < data.variants.length;
      labels.set(
        task.taskId,
        inSome
          ? `${t('reports.item.taskLabel', { positions: where })} (${numbers
              .map((n) => t('reports.item.variant', { number: n }))
              .join(', ')})`
          : t('reports.item.taskLabel', { positions: where }),
      );
    }
    return labels;
  }, [data, t]);
}

function ItemAnalysisView({ data }: { data: ItemAnalysis }) {
  const { t, lang } = useReportsT();
  const labels = useTaskLabels(data);
  if (data.withheld)
    return (
      <Alert color="yellow" title={t('reports.item.withheld')} data-testid="items-withheld">
        <Text size="sm">
          {data.reason ? t(`reports.item.reasons.${data.reason}`) : t('reports.item.withheld')}
        </Text>
      </Alert>
    );
  if (data.participants === 0 || data.tasks.length === 0) return <ReportEmpty />;
  const labelOf = (id: number) => labels.get(id) ?? DASH;
  return (
    <Stack gap="xl" data-testid="items-view">
      {data.participants < ITEM_ANALYSIS_MIN_PARTICIPANTS && (
        <Alert color="yellow" title={t('reports.item.fewTitle')} data-testid="items-few" role="alert">
          <Text size="sm">
            {t('reports.item.few', { count: data.participants, min: ITEM_ANALYSIS_MIN_PARTICIPANTS })}
          </Text>
        </Alert>
      )}
      <Paper withBorder p="md">
        <Stack gap={4}>
          <Text>{t('reports.item.participants', { count: data.participants })}</Text>
          <Tooltip label={t('reports.item.alphaHint')} multiline w={320} withArrow>
            <Text fw={600} data-testid="items-alpha" tabIndex={0} style={{ width: 'fit-content' }}>
              {data.alpha === null
                ? t('reports.item.alphaNone')
                : t('reports.item.alpha', { value: share(data.alpha, lang) })}
            </Text>
          </Tooltip>
          <Text size="sm" c="dimmed">
            {t('reports.item.alphaHint')}
          </Text>
          {data.rasch ? (
            <Text size="sm" c="dimmed">
              {t('reports.item.rasch', {
                linking: t(`reports.item.linking.${data.rasch.linking}`),
                persons: data.rasch.personsUsed,
                converged: data.rasch.converged ? '' : t('reports.item.notConverged'),
              })}
              {data.rasch.excludedTaskIds.length > 0 &&
                ` ${t('reports.item.excluded', { tasks: data.rasch.excludedTaskIds.map(labelOf).join(', ') })}`}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {t('reports.item.noRasch')}
            </Text>
          )}
        </Stack>
      </Paper>
      <FigureGuide minGroup={data.dif?.minGroupSize ?? DIF_MIN_GROUP_SIZE} />
      <TasksTable data={data} labelOf={labelOf} />
      <ThresholdsTable data={data} labelOf={labelOf} />
      <DifSection data={data} labelOf={labelOf} />
      <TaskDetail data={data} labelOf={labelOf} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <FacilityPlot data={data} labelOf={labelOf} />
        {data.rasch && data.rasch.wrightMap.length > 0 && (
          <VariantWrightMap data={data} render={(bins) => <WrightMap bins={bins} labelOf={labelOf} />} />
        )}
      </SimpleGrid>
      <Variants data={data} />
    </Stack>
  );
}

function TasksTable({ data, labelOf }: { data: ItemAnalysis; labelOf: (id: number) => string }) {
  const { t, lang } = useReportsT();
  const answerTypeLabel = useAnswerTypeLabel();
  const head = (label: string, hint?: string) => (
    <Table.Th ta="right">
      {hint ? (
        <Tooltip label={hint} multiline w={300} withArrow>
          <span tabIndex={0} style={{ textDecoration: 'underline dotted', cursor: 'help' }}>
            {label}
          </span>
        </Tooltip>
      ) : (
        label
      )}
    </Table.Th>
  );
  const fit = (task: ItemAnalysisTask) =>
    task.rasch ? `${num(task.rasch.infit, lang, 2)} / ${num(task.rasch.outfit, lang, 2)}` : DASH;
  return (
    <Stack gap="sm" component="section">
      <Title order={2} size="h4">
        {t('reports.item.tasks')}
      </Title>
      <Table.ScrollContainer
        minWidth={1100}
        type="native"
        tabIndex={0}
        role="region"
        aria-label={t('reports.item.tasks')}
      >
        <Table striped withTableBorder className="report-sticky-table" data-testid="items-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th className="sticky-col last-sticky" style={{ left: 0 }}>
                {t('reports.item.task')}
              </Table.Th>
              <Table.Th>{t('reports.item.type')}</Table.Th>
              {head(t('reports.item.max'))}
              {head(t('reports.item.n'))}
              {head(t('reports.item.facility'), t('reports.item.facilityHint'))}
              {head(t('reports.item.discrimination'), t('reports.item.discriminationHint'))}
              {head(t('reports.item.upperLower'))}
              {head(t('reports.item.alphaIfDeleted'))}
              {head(t('reports.item.difficulty'))}
              {head(t('reports.item.fit'))}
              <Table.Th>{t('reports.item.flags')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.tasks.map((task) => (
              <Table.Tr key={task.taskId} data-testid="items-row">
                <Table.Th scope="row" className="sticky-col last-sticky" style={{ left: 0 }}>
                  {labelOf(task.taskId)}
                </Table.Th>
                <Table.Td>{answerTypeLabel(task.answerType)}</Table.Td>
                <Table.Td ta="right">{num(task.maxScore, lang)}</Table.Td>
                <Table.Td ta="right">{task.n}</Table.Td>
                <Table.Td ta="right" data-col="facility">
                  {share(task.facility, lang)}
                </Table.Td>
                <Table.Td
                  ta="right"
                  data-col="discrimination"
                  c={task.discrimination !== null && task.discrimination < 0 ? 'red.8' : undefined}
                >
                  {share(task.discrimination, lang)}
                </Table.Td>
                <Table.Td ta="right">{share(task.upperLower, lang)}</Table.Td>
                <Table.Td ta="right">{share(task.alphaIfDeleted, lang)}</Table.Td>
                <Table.Td ta="right">
                  {task.rasch
                    ? `${num(task.rasch.difficulty, lang, 2)} ± ${num(task.rasch.se, lang, 2)}`
                    : DASH}
                </Table.Td>
                <Table.Td ta="right">{fit(task)}</Table.Td>
                <Table.Td>
                  <Stack gap={2} miw={180}>
                    {task.flags.map((flag) => (
                      <Text
                        key={flag}
                        size="xs"
                        c={flag === 'negative_discrimination' ? 'red.8' : 'orange.9'}
                      >
                        {t(`reports.item.flagNames.${flag}`)}
                      </Text>
                    ))}
                    <DifMark task={task} />
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function FacilityPlot({ data, labelOf }: { data: ItemAnalysis; labelOf: (id: number) => string }) {
  const { t, lang } = useReportsT();
  const points = data.tasks.filter((task) => task.facility !== null && task.discrimination !== null);
  if (points.length === 0) return null;
  const fine = points.filter((task) => task.flags.length === 0);
  const flagged = points.filter((task) => task.flags.length > 0);
  const series = [
    { name: t('reports.item.tasks'), color: 'attesta.6', data: fine },
    { name: t('reports.item.flags'), color: 'red.6', data: flagged },
  ]
    .filter((s) => s.data.length > 0)
    .map((s) => ({
      name: s.name,
      color: s.color,
      data: s.data.map((task) => ({ facility: task.facility!, discrimination: task.discrimination! })),
    }));
  const summary = `${t('reports.item.scatterAria')}: ${points
    .map(
      (task) =>
        `${labelOf(task.taskId)} — ${share(task.facility, lang)}; ${share(task.discrimination, lang)}`,
    )
    .join('; ')}`;
  return (
    <ChartFigure
      title={t('reports.item.scatter')}
      description={t('reports.item.scatterNote')}
      summary={summary}
      testId="items-scatter"
    >
      <ScatterChart
        h={300}
        data={series}
        dataKey={{ x: 'facility', y: 'discrimination' }}
        labels={{ x: t('reports.item.facility'), y: t('reports.item.discrimination') }}
        xAxisLabel={t('reports.item.facility')}
        yAxisLabel={t('reports.item.discrimination')}
        xAxisProps={{ domain: [0, 1], type: 'number' }}
        yAxisProps={{ domain: [-0.5, 1], ticks: [-0.5, -0.25, 0, 0.25, 0.5, 0.75, 1] }}
        valueFormatter={(value) => share(value, lang)}
        referenceLines={[
          { y: 0.3, color: 'teal.6', label: '0,3' },
          { y: 0, color: 'red.6' },
          { x: 0.2, color: 'gray.5' },
          { x: 0.9, color: 'gray.5' },
        ]}
        withLegend={series.length > 1}
        scatterProps={{ isAnimationActive: false }}
      />
    </ChartFigure>
  );
}

/** Participants (a bar per 0.5 logit) and tasks (their labels) on the same logit scale, hardest on top. */
function WrightMap({
  bins: all,
  labelOf,
}: {
  bins: NonNullable<ItemAnalysis['rasch']>['wrightMap'];
  labelOf: (id: number) => string;
}) {
  const { t, lang } = useReportsT();
  const bins = [...all].sort((a, b) => b.from - a.from);
  const most = Math.max(1, ...bins.map((b) => b.persons));
  const summary = `${t('reports.item.wrightAria')}: ${bins
    .filter((b) => b.persons > 0 || b.taskIds.length > 0)
    .map(
      (b) =>
        `${t('reports.item.wrightRange', { from: num(b.from, lang, 1), to: num(b.to, lang, 1) })} — ${t(
          'reports.item.wrightPersons',
          { count: b.persons },
        )}${b.taskIds.length ? `; ${b.taskIds.map(labelOf).join(', ')}` : ''}`,
    )
    .join('; ')}`;
  return (
    <ChartFigure
      title={t('reports.item.wright')}
      description={t('reports.item.wrightNote')}
      summary={summary}
      testId="items-wright"
    >
      <Stack gap={0} style={{ fontSize: 'var(--mantine-font-size-xs)' }}>
        <Group gap={0} wrap="nowrap" fw={600} pb={4}>
          <Text size="xs" fw={600} w="40%" ta="right" pr="xs">
            {t('reports.item.persons')}
          </Text>
          <Text size="xs" fw={600} w={72} ta="center">
            {t('reports.item.logits')}
          </Text>
          <Text size="xs" fw={600} pl="xs">
            {t('reports.item.items')}
          </Text>
        </Group>
        {bins.map((bin) => (
          <Group key={bin.from} gap={0} wrap="nowrap" mih={20} data-testid="wright-bin">
            <Group w="40%" justify="flex-end" gap={4} wrap="nowrap" pr="xs">
              {bin.persons > 0 && (
                <Text size="xs" c="dimmed">
                  {bin.persons}
                </Text>
              )}
              <div
                className="report-wright-bar"
                style={{ width: `${(bin.persons / most) * 80}%`, marginLeft: 0 }}
                title={t('reports.item.wrightPersons', { count: bin.persons })}
              />
            </Group>
            <Text
              size="xs"
              w={72}
              ta="center"
              style={{
                borderLeft: '2px solid var(--mantine-color-gray-5)',
                borderRight: '2px solid var(--mantine-color-gray-5)',
              }}
            >
              {num(bin.from, lang, 1)}
            </Text>
            <Group gap={4} pl="xs">
              {bin.taskIds.map((id) => (
                <Badge key={id} size="sm" variant="outline" tt="none">
                  {labelOf(id)}
                </Badge>
              ))}
            </Group>
          </Group>
        ))}
      </Stack>
    </ChartFigure>
  );
}

function Variants({ data }: { data: ItemAnalysis }) {
  const { t, lang } = useReportsT();
  const variants = data.variants;
  if (variants.length === 0) return null;
  const key = (id: number) => `v${id}`;
  const series = variants.map((v, i) => ({
    name: key(v.variantId),
    label: t('reports.item.variant', { number: v.number }),
    color: VARIANT_COLORS[i % VARIANT_COLORS.length]!,
  }));

  const curves = new Map<number, Record<string, number>>();
  for (const v of variants)
    for (const point of v.expected) {
      const ability = Math.round(point.ability * 100) / 100;
      const row = curves.get(ability) ?? { ability };
      row[key(v.variantId)] = Math.round(point.percent * 10) / 10;
      curves.set(ability, row);
    }
  const curveData = [...curves.values()].sort((a, b) => a.ability! - b.ability!);

  const totals = new Map<number, Record<string, number>>();
  for (const v of variants)
    for (const point of v.totalDistribution) {
      const row = totals.get(point.score) ?? { score: point.score };
      row[key(v.variantId)] = point.count;
      totals.set(point.score, row);
    }
  const totalData = [...totals.values()].sort((a, b) => a.score! - b.score!);

  return (
    <Stack gap="md" component="section">
      <Title order={2} size="h4">
        {t('reports.item.variants')}
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder data-testid="items-variants">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('reports.item.variantCol')}</Table.Th>
              <Table.Th ta="right">{t('reports.item.variantParticipants')}</Table.Th>
              <Table.Th ta="right">{t('reports.item.max')}</Table.Th>
              <Table.Th ta="right">{t('reports.item.variantMean')}</Table.Th>
              <Table.Th ta="right">{t('reports.item.variantSd')}</Table.Th>
              <Table.Th ta="right">{t('reports.item.variantAlpha')}</Table.Th>
              <Table.Th ta="right">{t('reports.item.variantDifficulty')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {variants.map((v) => (
              <Table.Tr key={v.variantId}>
                <Table.Th scope="row">{t('reports.item.variant', { number: v.number })}</Table.Th>
                <Table.Td ta="right">{v.participants}</Table.Td>
                <Table.Td ta="right">{num(v.maxScore, lang)}</Table.Td>
                <Table.Td ta="right">{num(v.meanScore, lang, 2)}</Table.Td>
                <Table.Td ta="right">{num(v.sd, lang, 2)}</Table.Td>
                <Table.Td ta="right">{share(v.alpha, lang)}</Table.Td>
                <Table.Td ta="right">{num(v.meanDifficulty, lang, 2)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {curveData.length > 0 && (
          <ChartFigure
            title={t('reports.item.variants')}
            description={t('reports.item.variantsNote')}
            summary={`${t('reports.item.variantsAria')}: ${variants
              .map(
                (v) =>
                  `${t('reports.item.variant', { number: v.number })} — ${num(v.meanDifficulty, lang, 2)}`,
              )
              .join('; ')}`}
            testId="items-curves"
          >
            <LineChart
              h={280}
              data={curveData}
              dataKey="ability"
              series={series}
              withLegend
              withDots={false}
              curveType="monotone"
              xAxisLabel={t('reports.item.ability')}
              yAxisLabel={t('reports.item.expectedPercent')}
              xAxisProps={{ type: 'number', domain: ['dataMin', 'dataMax'] }}
              yAxisProps={{ domain: [0, 100] }}
              unit=" %"
              lineProps={{ isAnimationActive: false }}
            />
          </ChartFigure>
        )}
        {totalData.length > 0 && (
          <ChartFigure
            title={t('reports.item.totalsTitle')}
            summary={variants
              .map(
                (v) =>
                  `${t('reports.item.totalsAria', { number: v.number })}: ${v.totalDistribution
                    .map((p) => `${num(p.score, lang)} — ${p.count}`)
                    .join(', ')}`,
              )
              .join('; ')}
            testId="items-totals"
          >
            <BarChart
              h={280}
              data={totalData}
              dataKey="score"
              series={series}
              withLegend={variants.length > 1}
              xAxisLabel={t('reports.item.score')}
              yAxisLabel={t('reports.item.count')}
              yAxisProps={{ allowDecimals: false }}
              barProps={{ isAnimationActive: false }}
            />
          </ChartFigure>
        )}
      </SimpleGrid>
    </Stack>
  );
}

/** One task in detail: how many got each score and, for choice tasks, who chose which answer. */
function TaskDetail({ data, labelOf }: { data: ItemAnalysis; labelOf: (id: number) => string }) {
  const { t, lang } = useReportsT();
  const [chosen, setChosen] = useState<number | null>(data.tasks[0]?.taskId ?? null);
  const task = data.tasks.find((item) => item.taskId === chosen) ?? null;
  const pct = (value: number) => `${num(value * 100, lang, 0)}\u00a0%`;
  return (
    <Stack gap="sm" component="section" data-testid="items-detail">
      <Group align="flex-end" gap="md">
        <Title order={2} size="h4">
          {t('reports.item.detail')}
        </Title>
        <Select
          w={320}
          label={t('reports.item.task')}
          data={data.tasks.map((item) => ({ value: String(item.taskId), label: labelOf(item.taskId) }))}
          value={chosen === null ? null : String(chosen)}
          onChange={(value) => setChosen(value ? Number(value) : null)}
          allowDeselect={false}
          data-testid="items-detail-task"
        />
      </Group>
      {task && (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <ChartFigure
            title={t('reports.item.scores', { task: labelOf(task.taskId) })}
            summary={`${t('reports.item.scores', { task: labelOf(task.taskId) })}: ${task.scoreDistribution
              .map((p) => `${num(p.score, lang)} — ${p.count}`)
              .join(', ')}`}
            testId="items-detail-scores"
          >
            <BarChart
              h={200}
              data={task.scoreDistribution.map((p) => ({ score: num(p.score, lang), count: p.count }))}
              dataKey="score"
              series={[{ name: 'count', label: t('reports.item.count'), color: 'attesta.6' }]}
              xAxisLabel={t('reports.item.score')}
              yAxisProps={{ allowDecimals: false }}
              barProps={{ isAnimationActive: false }}
            />
          </ChartFigure>
          {task.distractors ? (
            <Paper withBorder p="md">
              <Text fw={600} mb="xs">
                {t('reports.item.distractors')}
              </Text>
              <Table withTableBorder data-testid="items-distractors">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('reports.item.option')}</Table.Th>
                    <Table.Th ta="right">{t('reports.item.chose')}</Table.Th>
                    <Table.Th ta="right">{t('reports.item.upper')}</Table.Th>
                    <Table.Th ta="right">{t('reports.item.lower')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {task.distractors.options.map((option, index) => (
                    <Table.Tr key={option.option} fw={option.key ? 700 : undefined}>
                      <Table.Td>
                        {option.text
                          ? t('reports.item.optionText', { n: index + 1, text: option.text })
                          : t('reports.item.optionN', { n: index + 1 })}
                        {option.key ? ` — ${t('reports.item.key')}` : ''}
                      </Table.Td>
                      <Table.Td ta="right">{pct(option.share)}</Table.Td>
                      <Table.Td ta="right">{pct(option.upper)}</Table.Td>
                      <Table.Td ta="right">{pct(option.lower)}</Table.Td>
                    </Table.Tr>
                  ))}
                  <Table.Tr>
                    <Table.Td>{t('reports.item.noAnswer')}</Table.Td>
                    <Table.Td ta="right">{pct(task.distractors.noAnswer)}</Table.Td>
                    <Table.Td />
                    <Table.Td />
                  </Table.Tr>
                </Table.Tbody>
              </Table>
              <Text size="xs" c="dimmed" mt="xs">
                {t('reports.item.distractorsNote')}
              </Text>
            </Paper>
          ) : null}
        </SimpleGrid>
      )}
    </Stack>
  );
}

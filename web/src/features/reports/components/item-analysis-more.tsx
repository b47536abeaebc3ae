/**
 * Анализ заданий, продолжение (issue 28, items 4–5): what each figure means in plain words, the
 * thresholds of partial-credit tasks, the bias checks (DIF) with the counts they rest on, and the
 * choice of a variant for the Wright map. Strings live in this file's own bundle.
 */
import type { DifComparison, ItemAnalysis, ItemAnalysisTask, ItemDif } from '@attesta/contract';
import { Accordion, Alert, Badge, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useBundleT, type Bundle, type LooseT } from '../../../components/data-table/use-bundle-t';
import { DASH, num } from '../lib/format';

const ru = {
  itemMore: {
    guide: {
      title: 'Что означают показатели',
      facility:
        'Решаемость — средний балл за задание, делённый на максимум. 1 — все решили полностью, 0 — никто. Задания с решаемостью ниже 0,2 слишком трудны для этих участников, выше 0,9 — слишком легки: они почти ничего не говорят о различиях между учениками.',
      discrimination:
        'Различающая способность — насколько балл за задание согласуется с баллом за остальные задания работы (от −1 до 1). От 0,3 — задание хорошо отделяет сильных от слабых; ниже 0,2 — плохо; ниже нуля — сильные решают его хуже слабых, и стоит проверить ключ или формулировку.',
      upperLower:
        'Сильные − слабые — решаемость у 27 % участников с самым высоким общим баллом минус решаемость у 27 % с самым низким. Чем больше, тем лучше задание различает.',
      alpha:
        'α Кронбаха (надёжность) — насколько согласованно задания измеряют одно и то же. От 0,7 — приемлемо, от 0,8 — хорошо. «α без задания» показывает надёжность, если задание убрать: если она заметно выше общей, задание, вероятно, измеряет что-то другое.',
      difficulty:
        'Трудность (логиты) — положение задания на шкале модели Раша, общей для всех вариантов. 0 — средняя трудность заданий теста; +1 — заметно труднее, −1 — легче. «±» — погрешность оценки: чем меньше участников, тем она больше.',
      fit: 'Согласие с моделью (инфит / аутфит) — насколько ответы на задание похожи на ожидаемые по модели. Около 1 — хорошо; ниже 0,7 или выше 1,3 — задание ведёт себя необычно (например, его угадывают или решают не те, кто сильнее).',
      thresholds:
        'Пороги (для заданий с частичными баллами) — способность, при которой участнику одинаково вероятно получить этот балл и балл на ступень ниже. Пороги должны идти по возрастанию; если порог следующего балла ниже предыдущего, промежуточный балл почти никто не получает — стоит проверить критерии оценивания.',
      wright:
        'Карта Райта — участники и задания на одной шкале. Если задания выше основной массы участников, тест для них труден; если ниже — лёгок. Хороший тест покрывает заданиями тот же диапазон, где находятся участники. Карту можно посмотреть для каждого варианта.',
      dif: 'Проверка на предвзятость (DIF) — не решают ли задание по-разному две группы участников с одинаковым общим баллом (школа против остальных, девочки и мальчики, ученики с особыми условиями и без). Сравниваются только участники с равным баллом, поэтому разница в подготовке групп сама по себе не считается предвзятостью. Класс A — различий нет, B — умеренные, C — заметные: задание стоит показать методистам. Проверка не проводится, если в любой из групп меньше {{min}} участников.',
    },
    thresholds: {
      title: 'Задания с частичными баллами: пороги',
      note: 'Модель частичного оценивания: для каждого балла задания — способность (в логитах), с которой этот балл становится вероятнее предыдущего.',
      task: 'Задание',
      steps: 'Пороги: балл — порог ± погрешность',
      fitT: 'Инфит t / аутфит t',
      step: '{{score}} б.: {{value}} ± {{se}}',
      disordered: 'пороги не по порядку',
    },
    dif: {
      title: 'Проверка на предвзятость (DIF)',
      none: 'Групп для сравнения нет: у участников нет данных о школе, районе, классе, поле или особых условиях, либо все в одной группе.',
      comparisons: 'Сравнения',
      grouping: 'Признак',
      group: 'Группа',
      reference: 'С кем сравнивается',
      focalN: 'Участников в группе',
      referenceN: 'В группе сравнения',
      result: 'Итог',
      tooFew: 'не проверялось: меньше {{min}} участников',
      noFlags: 'предвзятых заданий нет',
      flaggedTasks: 'Отмечены: {{tasks}}',
      flagsTitle: 'Отмеченные задания',
      noneFlagged: 'Ни одно задание не отмечено.',
      task: 'Задание',
      comparison: 'Сравнение',
      counts: 'Участников: {{focal}} / {{reference}}',
      ets: 'Класс ETS',
      etsNames: { A: 'A — различий нет', B: 'B — умеренные различия', C: 'C — заметные различия' },
      favours: {
        reference: 'труднее для группы «{{group}}»',
        focal: 'легче для группы «{{group}}»',
      },
      delta: 'Δ MH = {{delta}} (p = {{p}})',
      rasch: 'По модели Раша: разница {{diff}} ± {{se}} логита',
      raschFlag: 'отмечено моделью Раша',
      noMh: 'оценка Мантеля — Хензеля не получилась',
      mark: 'возможна предвзятость (DIF)',
      groupings: {
        school: 'Школа',
        area: 'Район',
        grade: 'Класс (параллель)',
        gender: 'Пол',
        accommodations: 'Особые условия',
      },
      groups: {
        male: 'мальчики',
        female: 'девочки',
        with: 'с особыми условиями',
        without: 'без особых условий',
        grade: '{{grade}} класс',
        rest: 'остальные участники',
      },
    },
    wright: {
      variant: 'Карта Райта для',
      all: 'всех вариантов',
      variantN: 'варианта {{number}}',
    },
  },
};

const en: typeof ru = {
  itemMore: {
    guide: {
      title: 'What the figures mean',
      facility:
        'Facility: the mean score on the task divided by its maximum. 1 means everyone got full marks, 0 no one. Below 0.2 the task is too hard for these participants, above 0.9 too easy: it says little about differences between students.',
      discrimination:
        'Discrimination: how well the task score goes with the score on the rest of the work (−1 to 1). From 0.3 the task separates strong from weak students well; below 0.2 poorly; below zero strong students do worse than weak ones — check the key or the wording.',
      upperLower:
        'Strong − weak: facility among the 27 % with the highest total minus facility among the 27 % with the lowest. The larger, the better the task separates.',
      alpha:
        'Cronbach’s α (reliability): how consistently the tasks measure the same thing. 0.7 and above is acceptable, 0.8 good. “α without the task” is the reliability if the task were removed: if it is clearly higher, the task probably measures something else.',
      difficulty:
        'Difficulty (logits): the task’s place on the Rasch scale shared by all variants. 0 is the test’s average task; +1 clearly harder, −1 easier. “±” is the error of the estimate: the fewer participants, the larger.',
      fit: 'Fit to the model (infit / outfit): how close the answers are to what the model expects. About 1 is good; below 0.7 or above 1.3 the task behaves unusually (for example it is guessed, or solved by the wrong students).',
      thresholds:
        'Thresholds (tasks with partial credit): the ability at which a participant is as likely to get this score as the one below. They should increase; if a score’s threshold is below the previous one, hardly anyone gets the score in between — check the marking criteria.',
      wright:
        'Wright map: participants and tasks on one scale. Tasks above most participants make the test hard for them, tasks below easy. A good test covers with tasks the range where the participants are. The map can be shown for each variant.',
      dif: 'Bias check (DIF): do two groups of participants with the same total score do differently on the task (a school against the others, girls and boys, students with and without accommodations)? Only participants with equal totals are compared, so a difference in the groups’ preparation is not read as bias. Class A: no difference, B: moderate, C: large — show the task to the methodologists. No check while either group has fewer than {{min}} participants.',
    },
    thresholds: {
      title: 'Tasks with partial credit: thresholds',
      note: 'Partial credit model: for each score of the task, the ability (logits) from which that score becomes more likely than the one below.',
      task: 'Task',
      steps: 'Thresholds: score — threshold ± error',
      fitT: 'Infit t / outfit t',
      step: '{{score}} pt: {{value}} ± {{se}}',
      disordered: 'thresholds out of order',
    },
    dif: {
      title: 'Bias check (DIF)',
      none: 'No groups to compare: the participants have no school, area, grade, gender or accommodations recorded, or all are in one group.',
      comparisons: 'Comparisons',
      grouping: 'Attribute',
      group: 'Group',
      reference: 'Compared with',
      focalN: 'Participants in the group',
      referenceN: 'In the comparison group',
      result: 'Result',
      tooFew: 'not checked: fewer than {{min}} participants',
      noFlags: 'no biased tasks',
      flaggedTasks: 'Flagged: {{tasks}}',
      flagsTitle: 'Flagged tasks',
      noneFlagged: 'No task is flagged.',
      task: 'Task',
      comparison: 'Comparison',
      counts: 'Participants: {{focal}} / {{reference}}',
      ets: 'ETS class',
      etsNames: { A: 'A — no difference', B: 'B — moderate difference', C: 'C — large difference' },
      favours: {
        reference: 'harder for “{{group}}”',
        focal: 'easier for “{{group}}”',
      },
      delta: 'MH Δ = {{delta}} (p = {{p}})',
      rasch: 'Rasch model: difference {{diff}} ± {{se}} logits',
      raschFlag: 'flagged by the Rasch model',
      noMh: 'no Mantel–Haenszel estimate',
      mark: 'possible bias (DIF)',
      groupings: {
        school: 'School',
        area: 'Area',
        grade: 'Grade',
        gender: 'Gender',
        accommodations: 'Accommodations',
      },
      groups: {
        male: 'boys',
        female: 'girls',
        with: 'with accommodations',
        without: 'without accommodations',
        grade: 'grade {{grade}}',
        rest: 'all other participants',
      },
    },
    wright: {
      variant: 'Wright map for',
      all: 'all variants',
      variantN: 'variant {{number}}',
    },
  },
};

const bundle: Bundle = { ru, en };

function useMoreT(): { t: LooseT; lang: 'ru' | 'en' } {
  const { t, i18n } = useBundleT(bundle);
  return { t, lang: i18n.language === 'en' ? 'en' : 'ru' };
}

/** The name of a group: a school or area by its name, the others in words (never a raw key). */
function groupName(t: LooseT, grouping: DifComparison['grouping'], key: string | null, label: string | null) {
  if (key === null) return t('itemMore.dif.groups.rest');
  if (grouping === 'school' || grouping === 'area') return label ?? DASH;
  if (grouping === 'grade') return t('itemMore.dif.groups.grade', { grade: key });
  return t(`itemMore.dif.groups.${key}`);
}

/** The plain-words guide to every figure of the screen. */
export function FigureGuide({ minGroup }: { minGroup: number }) {
  const { t } = useMoreT();
  const keys = [
    'facility',
    'discrimination',
    'upperLower',
    'alpha',
    'difficulty',
    'fit',
    'thresholds',
    'wright',
    'dif',
  ];
  return (
    <Accordion variant="contained" data-testid="items-guide">
      <Accordion.Item value="guide">
        <Accordion.Control>{t('itemMore.guide.title')}</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="xs">
            {keys.map((key) => (
              <Text key={key} size="sm">
                {t(`itemMore.guide.${key}`, { min: minGroup })}
              </Text>
            ))}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

/** The thresholds of the tasks the partial credit model calibrated. */
export function ThresholdsTable({ data, labelOf }: { data: ItemAnalysis; labelOf: (id: number) => string }) {
  const { t, lang } = useMoreT();
  const tasks = data.tasks.filter((task) => (task.rasch?.thresholds?.length ?? 0) > 0);
  if (data.rasch?.model !== 'partial_credit' || tasks.length === 0) return null;
  return (
    <Stack gap="sm" component="section" data-testid="items-thresholds">
      <Title order={2} size="h4">
        {t('itemMore.thresholds.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('itemMore.thresholds.note')}
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('itemMore.thresholds.task')}</Table.Th>
              <Table.Th>{t('itemMore.thresholds.steps')}</Table.Th>
              <Table.Th ta="right">{t('itemMore.thresholds.fitT')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tasks.map((task) => {
              const steps = task.rasch!.thresholds!;
              const disordered = steps.some((s, i) => i > 0 && s.threshold < steps[i - 1]!.threshold);
              return (
                <Table.Tr key={task.taskId} data-testid="threshold-row">
                  <Table.Th scope="row">{labelOf(task.taskId)}</Table.Th>
                  <Table.Td>
                    <Group gap="xs">
                      {steps.map((s) => (
                        <Text key={s.score} size="sm">
                          {t('itemMore.thresholds.step', {
                            score: num(s.score, lang),
                            value: num(s.threshold, lang, 2),
                            se: num(s.se, lang, 2),
                          })}
                        </Text>
                      ))}
                      {disordered && (
                        <Badge color="orange" variant="light" tt="none">
                          {t('itemMore.thresholds.disordered')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">
                    {task.rasch!.infitT === undefined
                      ? DASH
                      : `${num(task.rasch!.infitT, lang, 2)} / ${num(task.rasch!.outfitT ?? null, lang, 2)}`}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** The short mark in the tasks table's remarks when a task is flagged by a bias check. */
export function DifMark({ task }: { task: ItemAnalysisTask }) {
  const { t } = useMoreT();
  if (!task.dif?.length) return null;
  return (
    <Text size="xs" c="grape.8" data-testid="items-dif-mark">
      {t('itemMore.dif.mark')}
    </Text>
  );
}

function comparisonName(t: LooseT, c: Pick<DifComparison, 'grouping' | 'group' | 'label' | 'reference'>) {
  const focal = groupName(t, c.grouping, c.group, c.label);
  const reference = groupName(t, c.grouping, c.reference, null);
  return `${t(`itemMore.dif.groupings.${c.grouping}`)}: ${focal} — ${reference}`;
}

function FlagLine({ flag, children }: { flag: ItemDif; children?: ReactNode }) {
  const { t, lang } = useMoreT();
  const mh = flag.mantelHaenszel;
  const focal = groupName(t, flag.grouping, flag.group, flag.label);
  return (
    <Stack gap={2}>
      {children}
      <Text size="sm">{t('itemMore.dif.counts', { focal: flag.nFocal, reference: flag.nReference })}</Text>
      {mh ? (
        <Text size="sm">
          <Badge
            color={mh.ets === 'C' ? 'red' : mh.ets === 'B' ? 'orange' : 'gray'}
            variant="light"
            tt="none"
          >
            {t(`itemMore.dif.etsNames.${mh.ets}`)}
          </Badge>{' '}
          {t(`itemMore.dif.favours.${mh.favours === 'focal' ? 'focal' : 'reference'}`, { group: focal })};{' '}
          {t('itemMore.dif.delta', { delta: num(mh.delta, lang, 2), p: num(mh.p, lang, 3) })}
        </Text>
      ) : (
        <Text size="sm">{t('itemMore.dif.noMh')}</Text>
      )}
      {flag.rasch && (
        <Text size="sm" c={flag.rasch.flagged ? 'grape.8' : undefined}>
          {t('itemMore.dif.rasch', {
            diff: num(flag.rasch.difference, lang, 2),
            se: num(flag.rasch.se, lang, 2),
          })}
          {flag.rasch.flagged ? ` — ${t('itemMore.dif.raschFlag')}` : ''}
        </Text>
      )}
    </Stack>
  );
}

/** Every comparison with its counts, and the tasks it flags. */
export function DifSection({ data, labelOf }: { data: ItemAnalysis; labelOf: (id: number) => string }) {
  const { t } = useMoreT();
  const dif = data.dif;
  if (!dif) return null;
  const flagged = data.tasks.filter((task) => task.dif?.length);
  return (
    <Stack gap="sm" component="section" data-testid="items-dif">
      <Title order={2} size="h4">
        {t('itemMore.dif.title')}
      </Title>
      {dif.comparisons.length === 0 ? (
        <Alert color="gray" data-testid="items-dif-none">
          <Text size="sm">{t('itemMore.dif.none')}</Text>
        </Alert>
      ) : (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table striped withTableBorder data-testid="items-dif-comparisons">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('itemMore.dif.grouping')}</Table.Th>
                  <Table.Th>{t('itemMore.dif.group')}</Table.Th>
                  <Table.Th>{t('itemMore.dif.reference')}</Table.Th>
                  <Table.Th ta="right">{t('itemMore.dif.focalN')}</Table.Th>
                  <Table.Th ta="right">{t('itemMore.dif.referenceN')}</Table.Th>
                  <Table.Th>{t('itemMore.dif.result')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {dif.comparisons.map((c) => (
                  <Table.Tr key={`${c.grouping}:${c.group}`} data-testid="dif-comparison">
                    <Table.Td>{t(`itemMore.dif.groupings.${c.grouping}`)}</Table.Td>
                    <Table.Td>{groupName(t, c.grouping, c.group, c.label)}</Table.Td>
                    <Table.Td>{groupName(t, c.grouping, c.reference, null)}</Table.Td>
                    <Table.Td ta="right">{c.nFocal}</Table.Td>
                    <Table.Td ta="right">{c.nReference}</Table.Td>
                    <Table.Td>
                      {!c.checked
                        ? t('itemMore.dif.tooFew', { min: dif.minGroupSize })
                        : c.flaggedTaskIds.length === 0
                          ? t('itemMore.dif.noFlags')
                          : t('itemMore.dif.flaggedTasks', {
                              tasks: c.flaggedTaskIds.map(labelOf).join(', '),
                            })}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Title order={3} size="h5">
            {t('itemMore.dif.flagsTitle')}
          </Title>
          {flagged.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('itemMore.dif.noneFlagged')}
            </Text>
          ) : (
            <Table withTableBorder data-testid="items-dif-flags">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('itemMore.dif.task')}</Table.Th>
                  <Table.Th>{t('itemMore.dif.comparison')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {flagged.flatMap((task) =>
                  task.dif!.map((flag) => (
                    <Table.Tr key={`${task.taskId}:${flag.grouping}:${flag.group}`} data-testid="dif-flag">
                      <Table.Th scope="row">{labelOf(task.taskId)}</Table.Th>
                      <Table.Td>
                        <FlagLine flag={flag}>
                          <Text size="sm" fw={600}>
                            {comparisonName(t, flag)}
                          </Text>
                        </FlagLine>
                      </Table.Td>
                    </Table.Tr>
                  )),
                )}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Stack>
  );
}

/** The Wright map of every variant together or of one, chosen above it. */
export function VariantWrightMap({
  data,
  render,
}: {
  data: ItemAnalysis;
  render: (bins: NonNullable<ItemAnalysis['rasch']>['wrightMap']) => ReactNode;
}) {
  const { t } = useMoreT();
  const [variant, setVariant] = useState<string>('all');
  const withMaps = data.variants.filter((v) => v.wrightMap && v.wrightMap.length > 0);
  const chosen = withMaps.find((v) => String(v.variantId) === variant);
  const bins = chosen?.wrightMap ?? data.rasch?.wrightMap ?? [];
  return (
    <Paper p={0}>
      <Stack gap="xs">
        {withMaps.length > 1 && (
          <Select
            w={280}
            label={t('itemMore.wright.variant')}
            data={[
              { value: 'all', label: t('itemMore.wright.all') },
              ...withMaps.map((v) => ({
                value: String(v.variantId),
                label: t('itemMore.wright.variantN', { number: v.number }),
              })),
            ]}
            value={chosen ? variant : 'all'}
            onChange={(value) => setVariant(value ?? 'all')}
            allowDeselect={false}
            data-testid="items-wright-variant"
          />
        )}
        {bins.length > 0 && render(bins)}
      </Stack>
    </Paper>
  );
}

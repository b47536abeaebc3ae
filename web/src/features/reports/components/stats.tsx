/** The figures of a group of registrations (docs/reports.md, "Figures") as table cells and headers. */
import type { ReportStats } from '@attesta/contract';
import { Table, Tooltip } from '@mantine/core';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import type { Language } from '../../../lib/format';
import { num, percent } from '../lib/format';

export type StatKey =
  | 'registered'
  | 'tookPart'
  | 'absent'
  | 'pending'
  | 'annulled'
  | 'finished'
  | 'unfinished'
  | 'scored'
  | 'notScored'
  | 'meanScore'
  | 'meanPercent';

export const ALL_STATS: StatKey[] = [
  'registered',
  'tookPart',
  'absent',
  'pending',
  'annulled',
  'finished',
  'unfinished',
  'scored',
  'notScored',
  'meanScore',
  'meanPercent',
];

const HINTS: Partial<Record<StatKey, string>> = {
  registered: 'reports.stats.hint.registered',
  scored: 'reports.stats.hint.scored',
  notScored: 'reports.stats.hint.notScored',
};

export function statText(stats: ReportStats, key: StatKey, lang: Language): string {
  if (key === 'meanScore') return num(stats.meanScore, lang);
  if (key === 'meanPercent') return percent(stats.meanPercent, lang);
  return num(stats[key], lang);
}

export function StatHeader({ stat, t }: { stat: StatKey; t: LooseT }) {
  const hint = HINTS[stat];
  const label = t(`reports.stats.${stat}`);
  return (
    <Table.Th ta="right" data-stat={stat}>
      {hint ? (
        <Tooltip label={t(hint)} multiline w={260} withArrow>
          <span style={{ textDecoration: 'underline dotted', cursor: 'help' }} tabIndex={0}>
            {label}
          </span>
        </Tooltip>
      ) : (
        label
      )}
    </Table.Th>
  );
}

/** How many got each mark "2".."5" (and any other mark of the scale). */
export const markCount = (stats: ReportStats, mark: string) =>
  stats.marks.find((m) => m.mark === mark)?.count ?? 0;

/** Every mark that occurs in some group, "2".."5" first as the server lists them. */
export function markKeys(groups: readonly ReportStats[]): string[] {
  const keys: string[] = [];
  for (const g of groups) for (const m of g.marks) if (!keys.includes(m.mark)) keys.push(m.mark);
  return keys;
}

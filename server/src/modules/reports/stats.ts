import type { ReportStats } from '@attesta/contract';
import { schoolDay } from '../../lib/calendar.js';
import type { ReportRow } from './reports.repo.js';

/*
 * What a registration counts as (docs/reports.md, "Figures"), and running totals of a group of
 * registrations. Pure: the services feed rows page by page.
 */

export type Attendance = 'annulled' | 'took_part' | 'absent' | 'pending';

type AttendanceFields = Pick<ReportRow, 'status' | 'workId' | 'testDate' | 'diagnosticEndsAt'>;

/**
 * Annulled registrations count as annulled whatever happened; a live work means the participant
 * took part; without one a registration is absent once marked so or once its test day or the
 * diagnostic's window is over, and pending before that.
 */
export function attendanceOf(r: AttendanceFields, now: Date): Attendance {
  if (r.status === 'annulled') return 'annulled';
  if (r.workId !== null) return 'took_part';
  if (r.status === 'absent' || r.testDate < schoolDay(now) || r.diagnosticEndsAt <= now) return 'absent';
  return 'pending';
}

/**
 * The results the figures count: a finished live work of a registration that is not annulled,
 * whose result is complete (`scored`: every task has its final score). Publication does not matter
 * to staff screens; the exports to other systems add it (docs/reports.md, "Which results count").
 */
export const isCounted = (
  r: Pick<ReportRow, 'status' | 'workId' | 'finishedAt' | 'resultStatus' | 'primaryScore'>,
): boolean =>
  r.status !== 'annulled' &&
  r.workId !== null &&
  r.finishedAt !== null &&
  r.resultStatus === 'scored' &&
  r.primaryScore !== null;

/** Hundredths as integers, so that sums of many scores do not drift. */
const cents = (n: number) => Math.round(n * 100);
const STANDARD_MARKS = ['2', '3', '4', '5'];

export class StatsAccumulator {
  registered = 0;
  annulled = 0;
  tookPart = 0;
  absent = 0;
  pending = 0;
  finished = 0;
  unfinished = 0;
  scored = 0;
  notScored = 0;
  maxScore: number | null = null;
  firstDate: string | null = null;
  lastDate: string | null = null;
  private scoreCents = 0;
  private percentCents = 0;
  private readonly marks = new Map<string, number>();
  private readonly levels = new Map<string, number>();
  private readonly levelOrder: string[] = [];

  add(r: ReportRow, now: Date): void {
    this.registered++;
    if (this.firstDate === null || r.testDate < this.firstDate) this.firstDate = r.testDate;
    if (this.lastDate === null || r.testDate > this.lastDate) this.lastDate = r.testDate;
    for (const level of r.levelOrder) if (!this.levelOrder.includes(level)) this.levelOrder.push(level);
    const attendance = attendanceOf(r, now);
    if (attendance === 'annulled') {
      this.annulled++;
      return;
    }
    if (attendance === 'absent') this.absent++;
    if (attendance === 'pending') this.pending++;
    if (attendance !== 'took_part') return;
    this.tookPart++;
    if (r.finishedAt === null) {
      this.unfinished++;
      return;
    }
    this.finished++;
    if (!isCounted(r)) {
      this.notScored++;
      return;
    }
    this.scored++;
    this.scoreCents += cents(r.primaryScore!);
    this.percentCents += cents(r.percent ?? 0);
    if (r.maxScore !== null) this.maxScore = Math.max(this.maxScore ?? 0, r.maxScore);
    if (r.mark !== null) this.marks.set(r.mark, (this.marks.get(r.mark) ?? 0) + 1);
    if (r.level !== null) this.levels.set(r.level, (this.levels.get(r.level) ?? 0) + 1);
  }

  result(): ReportStats {
    const mean = (sumCents: number) => (this.scored ? Math.round(sumCents / this.scored) / 100 : null);
    const otherMarks = [...this.marks.keys()].filter((m) => !STANDARD_MARKS.includes(m)).sort();
    const levelNames = [
      ...this.levelOrder.filter((l) => this.levels.has(l)),
      ...[...this.levels.keys()].filter((l) => !this.levelOrder.includes(l)).sort(),
    ];
    return {
      registered: this.registered,
      annulled: this.annulled,
      tookPart: this.tookPart,
      absent: this.absent,
      pending: this.pending,
      finished: this.finished,
      unfinished: this.unfinished,
      scored: this.scored,
      notScored: this.notScored,
      meanScore: mean(this.scoreCents),
      meanPercent: mean(this.percentCents),
      marks: [...STANDARD_MARKS, ...otherMarks].map((mark) => ({ mark, count: this.marks.get(mark) ?? 0 })),
      levels: levelNames.map((level) => ({ level, count: this.levels.get(level)! })),
    };
  }
}

/** Running totals by key, in the order keys first appear. */
export class GroupedStats<K> {
  readonly groups = new Map<K, StatsAccumulator>();
  of(key: K): StatsAccumulator {
    let acc = this.groups.get(key);
    if (!acc) this.groups.set(key, (acc = new StatsAccumulator()));
    return acc;
  }
}

/** Full name of a registration's participant; undefined for impersonal registrations. */
export function participantNameOf(r: Pick<ReportRow, 'surname' | 'name' | 'patronymic'>): string | undefined {
  const name = [r.surname, r.name, r.patronymic].filter(Boolean).join(' ');
  return name || undefined;
}

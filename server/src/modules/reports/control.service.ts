import { CONTROL_HEADERS_RU as C, STATS_HEADERS_RU as S, UNFINISHED_STATUS_RU } from '@attesta/contract';
import { and } from 'drizzle-orm';
import type { ReportAnomaly, ReportControl, ReportQuery } from '@attesta/contract';
import { buildWorkbook, dayColumn, schoolTimeColumn, sheet, XLSX_MIME } from '../../lib/xlsx.js';
import {
  FAST_FINISH_SHARE,
  INTEGRITY_LEAVES,
  OFFLINE_GAP_SECONDS,
  SIMILAR_MIN_SHARE,
  SIMILAR_MIN_SHARED_WRONG,
  answerKey,
  fastFinish,
  integrityCounts,
  isSimilar,
  offlineGaps,
  proctoringVerdicts,
  similarity,
  type TaskAnswer,
} from './anomalies.js';
import {
  EVENT_WORDS,
  filterCaption,
  PDF_MIME,
  pdfHeading,
  pdfParagraph,
  pdfTable,
  reportPdf,
  schoolTime,
  type ReportFile,
} from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { reportRowScope, STAFF_REPORT_ROLES } from './reports.access.js';
import {
  answersWithScoresOf,
  eventsOf,
  reportRowPages,
  saveTimesOf,
  type ReportRow,
} from './reports.repo.js';
import { attendanceOf, participantNameOf } from './stats.js';
import type { ReportCaller } from './summary.service.js';
import { groupBy } from '../../lib/group-by.js';

/*
 * `control`: attendance by subject test, school, class and day; the works not finished; and the
 * works worth an inspector's look (anomalies.ts says how each is measured). Rows are read a page at
 * a time; the similarity check then reads the answers of one room at a time.
 */

type Attendance = ReportControl['attendance'][number];
type Ref = Pick<
  ReportAnomaly,
  'participantTestId' | 'code' | 'participantName' | 'schoolId' | 'classId' | 'subjectTestId' | 'testDate'
>;

const refOf = (r: ReportRow): Ref => {
  const name = participantNameOf(r);
  return {
    participantTestId: r.participantTestId,
    code: r.registrationCode,
    ...(name ? { participantName: name } : {}),
    schoolId: r.schoolId,
    classId: r.classId,
    subjectTestId: r.subjectTestId,
    testDate: r.testDate,
  };
};

/** A room: one subject test of a diagnostic on one day in one class (or, without a class, one building). */
const roomOf = (r: ReportRow) =>
  `${r.diagnosticId}|${r.subjectTestId}|${r.testDate}|${r.classId !== null ? `c${r.classId}` : `b${r.buildingId ?? 0}`}`;

const byName = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '', 'ru');
const ANOMALY_ORDER: ReportAnomaly['kind'][] = [
  'similar_answers',
  'fast_finish',
  'offline_gap',
  'integrity_events',
  'proctoring',
];

export async function controlData(caller: ReportCaller, query: ReportQuery): Promise<ReportControl> {
  const filters = reportFilters(query);
  const now = caller.now ?? new Date();
  const attendance = new Map<string, Attendance>();
  const unfinished: ReportControl['unfinished'] = [];
  const anomalies: ReportAnomaly[] = [];
  const rooms = new Map<string, { ref: Ref; workId: number }[]>();
  const where = and(reportRowScope(caller.auth, STAFF_REPORT_ROLES), filterCondition(filters));

  for await (const page of reportRowPages(caller.db, where, { onPage: caller.onPage })) {
    const works = page.filter((r) => r.workId !== null && r.status !== 'annulled');
    const workIds = works.map((r) => r.workId!);
    const [events, saves] = await Promise.all([
      eventsOf(caller.db, workIds),
      saveTimesOf(caller.db, workIds),
    ]);
    const eventsByWork = groupBy(events, (e) => e.examWorkId);
    const savesByWork = groupBy(saves, (s) => s.examWorkId);
    for (const r of page) {
      const key = `${r.subjectTestId}|${r.schoolId}|${r.classId}|${r.testDate}`;
      let a = attendance.get(key);
      if (!a)
        attendance.set(
          key,
          (a = {
            subjectTestId: r.subjectTestId,
            subjectTestName: r.subjectTestName,
            schoolId: r.schoolId,
            schoolName: r.schoolName,
            classId: r.classId,
            className: r.className,
            testDate: r.testDate,
            registered: 0,
            annulled: 0,
            tookPart: 0,
            absent: 0,
            pending: 0,
            finished: 0,
            unfinished: 0,
          }),
        );
      a.registered++;
      const seen = attendanceOf(r, now);
      if (seen === 'annulled') a.annulled++;
      else if (seen === 'absent') a.absent++;
      else if (seen === 'pending') a.pending++;
      else {
        a.tookPart++;
        if (r.finishedAt) a.finished++;
        else a.unfinished++;
      }
    }
    for (const r of works) {
      const ref = refOf(r);
      const examWorkId = r.workId!;
      if (!r.finishedAt)
        unfinished.push({
          ...ref,
          examWorkId,
          status: r.workStatus ?? 'in_progress',
          startedAt: r.startedAt!.toISOString(),
          deadlineAt: r.deadlineAt!.toISOString(),
        });
      const fast = fastFinish({
        startedAt: r.startedAt!,
        finishedAt: r.finishedAt,
        finishReason: r.finishReason,
        timeLimitSeconds: r.timeLimitSeconds ?? 0,
        extraSeconds: r.extraSeconds ?? 0,
        pausedSeconds: r.pausedSeconds ?? 0,
      });
      if (fast) anomalies.push({ kind: 'fast_finish', ...ref, examWorkId, ...fast });
      const own = eventsByWork.get(examWorkId) ?? [];
      const gaps = offlineGaps(
        own,
        (savesByWork.get(examWorkId) ?? []).map((s) => s.savedAt),
        r.finishedAt,
      );
      if (gaps.gaps) anomalies.push({ kind: 'offline_gap', ...ref, examWorkId, ...gaps });
      const integrity = integrityCounts(own);
      if (integrity.leaves >= INTEGRITY_LEAVES)
        anomalies.push({ kind: 'integrity_events', ...ref, examWorkId, ...integrity });
      for (const v of proctoringVerdicts(own))
        anomalies.push({
          kind: 'proctoring',
          ...ref,
          examWorkId,
          verdict: v.verdict,
          at: v.at.toISOString(),
        });
      if (r.finishedAt) {
        const room = roomOf(r);
        const members = rooms.get(room);
        if (members) members.push({ ref, workId: examWorkId });
        else rooms.set(room, [{ ref, workId: examWorkId }]);
      }
    }
  }

  for (const members of rooms.values()) {
    if (members.length < 2) continue;
    const rows = await answersWithScoresOf(
      caller.db,
      members.map((m) => m.workId),
    );
    const byWork = new Map<number, Map<number, TaskAnswer>>();
    for (const a of rows) {
      const tasks = byWork.get(a.examWorkId) ?? new Map<number, TaskAnswer>();
      tasks.set(a.taskId, { key: answerKey(a.value), wrong: a.score !== null && a.score < a.maxScore });
      byWork.set(a.examWorkId, tasks);
    }
    for (let i = 0; i < members.length; i++)
      for (let j = i + 1; j < members.length; j++) {
        const [x, y] = [members[i]!, members[j]!];
        const s = similarity(byWork.get(x.workId) ?? new Map(), byWork.get(y.workId) ?? new Map());
        if (!isSimilar(s)) continue;
        anomalies.push({
          kind: 'similar_answers',
          ...x.ref,
          examWorkId: x.workId,
          other: {
            participantTestId: y.ref.participantTestId,
            examWorkId: y.workId,
            code: y.ref.code,
            ...(y.ref.participantName ? { participantName: y.ref.participantName } : {}),
          },
          ...s,
        });
      }
  }

  return {
    generatedAt: now.toISOString(),
    filters,
    thresholds: {
      fastFinishShare: FAST_FINISH_SHARE,
      offlineGapSeconds: OFFLINE_GAP_SECONDS,
      integrityLeaves: INTEGRITY_LEAVES,
      similarMinSharedWrong: SIMILAR_MIN_SHARED_WRONG,
      similarMinShare: SIMILAR_MIN_SHARE,
    },
    attendance: [...attendance.values()].sort(
      (a, b) =>
        byName(a.subjectTestName, b.subjectTestName) ||
        byName(a.schoolName, b.schoolName) ||
        byName(a.className, b.className) ||
        a.testDate.localeCompare(b.testDate),
    ),
    unfinished: unfinished.sort((a, b) => a.participantTestId - b.participantTestId),
    anomalies: anomalies.sort(
      (a, b) =>
        ANOMALY_ORDER.indexOf(a.kind) - ANOMALY_ORDER.indexOf(b.kind) ||
        a.participantTestId - b.participantTestId,
    ),
  };
}

const ANOMALY_TITLES: Record<ReportAnomaly['kind'], string> = {
  similar_answers: 'Совпадение неверных ответов',
  fast_finish: 'Слишком быстрое завершение',
  offline_gap: 'Долгий перерыв связи',
  integrity_events: 'Уходы со страницы теста',
  proctoring: 'Заключение прокторинга',
};

const minutes = (s: number) => `${Math.round(s / 6) / 10} мин`.replace('.', ',');

/** What an anomaly says, in words, for the files. */
export function anomalyText(a: ReportAnomaly): string {
  switch (a.kind) {
    case 'similar_answers':
      return `с ${a.other.participantName ?? a.other.code} (${a.other.code}): одинаковых неверных ответов ${a.sharedWrong} из ${a.bothWrong} общих ошибок, заданий ${a.compared}`;
    case 'fast_finish':
      return `работа заняла ${minutes(a.usedSeconds)} из ${minutes(a.limitSeconds)}`;
    case 'offline_gap':
      return `перерывов: ${a.gaps}, самый долгий ${minutes(a.longestSeconds)}, всего ${minutes(a.totalSeconds)}`;
    case 'integrity_events':
      return `уходов со страницы: ${a.leaves} (${Object.entries(a.events)
        .map(([k, n]) => `${EVENT_WORDS[k] ?? k} × ${n}`)
        .join(', ')})`;
    case 'proctoring':
      return `${a.verdict} (${schoolTime(new Date(a.at))})`;
  }
}

export async function controlFile(caller: ReportCaller, query: ReportQuery): Promise<ReportFile> {
  const data = await controlData(caller, query);
  const caption = await filterCaption(caller.db, data.filters);
  const title = 'Контрольный отчёт';
  type Unfinished = ReportControl['unfinished'][number];
  const testName = new Map(data.attendance.map((a) => [a.subjectTestId, a.subjectTestName]));
  const placeName = new Map(
    data.attendance.map((a) => [
      `${a.schoolId}|${a.classId}`,
      `${a.schoolName ?? '—'}, ${a.className ?? '—'}`,
    ]),
  );
  const place = (r: { schoolId: number | null; classId: number | null }) =>
    placeName.get(`${r.schoolId}|${r.classId}`) ?? '';
  const who = (r: { participantName?: string | undefined; code: string }) => r.participantName ?? r.code;
  if (query.format === 'pdf') {
    const body = await reportPdf(title, caption, (doc) => {
      pdfHeading(doc, 'Явка', { size: 11 });
      pdfTable(
        doc,
        [
          { header: 'Тест', weight: 1.8 },
          { header: 'Школа, класс', weight: 2.2 },
          { header: 'Дата', weight: 1 },
          { header: 'Зарег.', align: 'right', weight: 0.85 },
          { header: 'Участв.', align: 'right', weight: 0.85 },
          { header: 'Отсут.', align: 'right', weight: 0.85 },
          { header: 'Заверш.', align: 'right', weight: 0.85 },
          { header: 'Не заверш.', align: 'right', weight: 0.85 },
        ],
        data.attendance.map((a) => [
          a.subjectTestName,
          `${a.schoolName ?? '—'}, ${a.className ?? '—'}`,
          a.testDate.split('-').reverse().join('.'),
          String(a.registered),
          String(a.tookPart),
          String(a.absent),
          String(a.finished),
          String(a.unfinished),
        ]),
        { size: 8 },
      );
      pdfHeading(doc, 'Незавершённые работы', { size: 11 });
      if (!data.unfinished.length) pdfParagraph(doc, 'Нет.');
      else
        pdfTable(
          doc,
          [
            { header: 'Участник', weight: 2 },
            { header: 'Школа, класс', weight: 2.4 },
            { header: 'Тест', weight: 2 },
            { header: 'Начало', weight: 1.2 },
          ],
          data.unfinished.map((u) => [
            who(u),
            place(u),
            testName.get(u.subjectTestId) ?? '',
            schoolTime(new Date(u.startedAt)),
          ]),
          { size: 8 },
        );
      pdfHeading(doc, 'Замечания', { size: 11 });
      if (!data.anomalies.length) pdfParagraph(doc, 'Нет.');
      else
        pdfTable(
          doc,
          [
            { header: 'Замечание', weight: 1.6 },
            { header: 'Участник', weight: 1.8 },
            { header: 'Школа, класс', weight: 2 },
            { header: 'Подробности', weight: 3 },
          ],
          data.anomalies.map((a) => [
            ANOMALY_TITLES[a.kind],
            `${who(a)} (${a.code})`,
            place(a),
            anomalyText(a),
          ]),
          { size: 8 },
        );
    });
    return { fileName: 'Контрольный отчёт.pdf', mime: PDF_MIME, body };
  }
  const body = await buildWorkbook([
    sheet<Attendance>({
      name: 'Явка',
      title: [title, ...caption],
      rows: data.attendance,
      columns: [
        { header: C.subjectTest, width: 30, value: (a) => a.subjectTestName },
        { header: C.school, width: 32, value: (a) => a.schoolName },
        { header: C.class, width: 9, value: (a) => a.className },
        dayColumn(C.testDate, (a) => a.testDate, 11),
        { header: S.registered, width: 16, value: (a) => a.registered },
        { header: S.annulled, width: 13, value: (a) => a.annulled },
        { header: S.tookPart, width: 12, value: (a) => a.tookPart },
        { header: S.absent, width: 13, value: (a) => a.absent },
        { header: S.pending, width: 14, value: (a) => a.pending },
        { header: S.finished, width: 11, value: (a) => a.finished },
        { header: S.unfinished, width: 12, value: (a) => a.unfinished },
      ],
    }),
    sheet<Unfinished>({
      name: 'Незавершённые',
      rows: data.unfinished,
      columns: [
        { header: C.code, width: 16, value: (u) => u.code },
        { header: C.participant, width: 30, value: (u) => u.participantName ?? null },
        { header: 'Школа, класс', width: 36, value: place },
        { header: C.subjectTest, width: 30, value: (u) => testName.get(u.subjectTestId) ?? null },
        {
          header: C.status,
          width: 12,
          value: (u) => UNFINISHED_STATUS_RU[u.status as keyof typeof UNFINISHED_STATUS_RU] ?? null,
        },
        schoolTimeColumn(C.startedAt, (u) => u.startedAt),
        schoolTimeColumn(C.deadlineAt, (u) => u.deadlineAt),
      ],
    }),
    sheet<ReportAnomaly>({
      name: 'Замечания',
      rows: data.anomalies,
      columns: [
        { header: 'Замечание', width: 30, value: (a) => ANOMALY_TITLES[a.kind] },
        { header: 'Код участника', width: 16, value: (a) => a.code },
        { header: 'Участник', width: 30, value: (a) => a.participantName ?? null },
        { header: 'Школа, класс', width: 36, value: place },
        { header: 'Тест', width: 30, value: (a) => testName.get(a.subjectTestId) ?? null },
        { header: 'Подробности', width: 70, value: anomalyText },
      ],
    }),
  ]);
  return { fileName: 'Контрольный отчёт.xlsx', mime: XLSX_MIME, body };
}

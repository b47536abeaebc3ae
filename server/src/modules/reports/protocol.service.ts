import { and, eq } from 'drizzle-orm';
import type { ReportProtocol, ReportProtocolQuery } from '@attesta/contract';
import { participantTests } from '../../db/schema/index.js';
import { displayDate } from '../../lib/calendar.js';
import {
  createPdf,
  decoratePages,
  ensureSpace,
  heading,
  keyValues,
  pageNumberFooter,
  paragraph,
  pdfToBuffer,
  runningHeader,
  table,
  type PdfDoc,
} from '../../lib/pdf/index.js';
import { liveDiagnostic } from '../create-diagnostic/index.js';
import { EVENT_WORDS, PDF_MIME, schoolTime, type ReportFile } from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { PROTOCOL_ROLES, reportRowScope } from './reports.access.js';
import { eventsOf, reportRowPages, type ReportRow } from './reports.repo.js';
import {
  deletedWorksOf,
  durationsOf,
  organizersOf,
  pausesOf,
  roomOf,
  timeChangesOf,
} from './protocol.repo.js';
import { attendanceOf, participantNameOf } from './stats.js';
import type { ReportCaller } from './summary.service.js';

/*
 * The protocol of a sitting (протокол проведения): one room — a class, or a whole building — of a
 * diagnostic, one section per subject test and day, with who was there, when the works started and
 * finished, pauses and time changes with their reasons (pause records and the audit trail),
 * incidents (integrity events, deleted works) and lines for the signatures.
 */

/** Events that mark a departure, not a return: the protocol lists these. */
const INCIDENT_KINDS = new Set([
  'blur',
  'fullscreen_exit',
  'visibility_hidden',
  'offline',
  // recorded by the server: the runner's connection dropped while the work ran; another device was refused
  'connection_lost',
  'second_device',
]);
const ATTENDANCE = {
  took_part: 'present',
  absent: 'absent',
  pending: 'pending',
  annulled: 'annulled',
} as const;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function protocolData(
  caller: ReportCaller,
  query: Omit<ReportProtocolQuery, 'format'>,
): Promise<ReportProtocol> {
  const filters = reportFilters(query);
  const now = caller.now ?? new Date();
  const db = caller.db;
  const diagnostic = await liveDiagnostic(db, { id: query.diagnosticId });
  const room = await roomOf(db, query);
  const where = and(
    reportRowScope(caller.auth, PROTOCOL_ROLES),
    filterCondition(filters),
    query.buildingId !== undefined ? eq(participantTests.buildingId, query.buildingId) : undefined,
  );
  const rows: ReportRow[] = [];
  for await (const page of reportRowPages(db, where)) rows.push(...page);
  const workIds = rows.flatMap((r) => (r.workId !== null ? [r.workId] : []));
  const [organizers, durations, pauses, timeChanges, events, deleted] = await Promise.all([
    organizersOf(db, room),
    durationsOf(db, [...new Set(rows.map((r) => r.subjectTestId))]),
    pausesOf(db, workIds),
    timeChangesOf(db, workIds),
    eventsOf(db, workIds),
    deletedWorksOf(
      db,
      rows.map((r) => r.participantTestId),
    ),
  ]);
  const rowOfWork = new Map(rows.flatMap((r) => (r.workId !== null ? [[r.workId, r] as const] : [])));
  const nameOf = (r: ReportRow) => participantNameOf(r) ?? `Участник ${r.registrationCode}`;

  const sittings = new Map<string, ReportProtocol['sittings'][number]>();
  const sittingOf = (r: ReportRow) => {
    const key = `${r.subjectTestId}|${r.testDate}`;
    let s = sittings.get(key);
    if (!s)
      sittings.set(
        key,
        (s = {
          subjectTestId: r.subjectTestId,
          subjectTestName: r.subjectTestName,
          testDate: r.testDate,
          durationMinutes: durations.get(r.subjectTestId) ?? 0,
          present: 0,
          absent: 0,
          startedAt: null,
          finishedAt: null,
          participants: [],
          pauses: [],
          timeChanges: [],
          incidents: [],
        }),
      );
    return s;
  };
  const sorted = [...rows].sort(
    (a, b) => nameOf(a).localeCompare(nameOf(b), 'ru') || a.participantTestId - b.participantTestId,
  );
  for (const r of sorted) {
    const s = sittingOf(r);
    const attendance = ATTENDANCE[attendanceOf(r, now)];
    if (attendance === 'present') s.present++;
    if (attendance === 'absent') s.absent++;
    if (r.startedAt && (s.startedAt === null || r.startedAt.toISOString() < s.startedAt))
      s.startedAt = r.startedAt.toISOString();
    if (r.finishedAt && (s.finishedAt === null || r.finishedAt.toISOString() > s.finishedAt))
      s.finishedAt = r.finishedAt.toISOString();
    s.participants.push({
      participantTestId: r.participantTestId,
      code: r.registrationCode,
      participantName: nameOf(r),
      className: r.className,
      attendance,
      startedAt: iso(r.startedAt),
      finishedAt: iso(r.finishedAt),
      finishReason: r.finishReason,
      answerMode: r.answerMode,
    });
  }
  for (const p of pauses) {
    const r = rowOfWork.get(p.examWorkId);
    if (r)
      sittingOf(r).pauses.push({
        participantTestId: r.participantTestId,
        participantName: nameOf(r),
        startedAt: p.startedAt.toISOString(),
        endedAt: iso(p.endedAt),
        byStaff: p.byStaff,
        by: p.by,
        resumedBy: p.resumedBy,
        reason: p.reason,
      });
  }
  for (const c of timeChanges) {
    const r = rowOfWork.get(c.examWorkId);
    if (r)
      sittingOf(r).timeChanges.push({
        participantTestId: r.participantTestId,
        participantName: nameOf(r),
        at: c.at.toISOString(),
        deltaSeconds: c.deltaSeconds,
        by: c.by,
        reason: c.reason,
      });
  }
  const incidents = new Map<string, ReportProtocol['sittings'][number]['incidents'][number]>();
  for (const e of events) {
    const r = rowOfWork.get(e.examWorkId);
    if (!r || !(INCIDENT_KINDS.has(e.kind) || e.kind.startsWith('proctoring'))) continue;
    const key = `${e.examWorkId}|${e.kind}`;
    const at = e.at.toISOString();
    const seen = incidents.get(key);
    if (seen) {
      seen.count++;
      seen.lastAt = at;
      continue;
    }
    const incident = {
      participantTestId: r.participantTestId,
      participantName: nameOf(r),
      kind: e.kind,
      count: 1,
      firstAt: at,
      lastAt: at,
      reason: typeof e.details?.verdict === 'string' ? e.details.verdict : null,
      by: null,
    };
    incidents.set(key, incident);
    sittingOf(r).incidents.push(incident);
  }
  const byPt = new Map(rows.map((r) => [r.participantTestId, r]));
  for (const d of deleted) {
    const r = byPt.get(d.participantTestId);
    if (!r || !d.deletedAt) continue;
    const at = d.deletedAt.toISOString();
    sittingOf(r).incidents.push({
      participantTestId: r.participantTestId,
      participantName: nameOf(r),
      kind: 'work_deleted',
      count: 1,
      firstAt: at,
      lastAt: at,
      reason: d.reason,
      by: d.by,
    });
  }
  return {
    generatedAt: now.toISOString(),
    diagnostic: { id: diagnostic.id, code: diagnostic.code, name: diagnostic.name },
    room,
    organizers,
    sittings: [...sittings.values()].sort(
      (a, b) =>
        a.testDate.localeCompare(b.testDate) || a.subjectTestName.localeCompare(b.subjectTestName, 'ru'),
    ),
  };
}

// ------------------------------------------------------------------ the PDF

const ATTENDANCE_WORDS = {
  present: 'присутствовал(а)',
  absent: 'отсутствовал(а)',
  pending: 'не начинал(а)',
  annulled: 'аннулировано',
} as const;
const FINISH_WORDS: Record<string, string> = {
  manual: 'сам(а)',
  timeout: 'по времени',
  organizator: 'организатор',
};
const time = (at: string | null) => (at ? schoolTime(new Date(at), false) : '—');
const signedMinutes = (s: number) => `${s >= 0 ? '+' : '−'}${Math.round(Math.abs(s) / 60)} мин`;

function signatureLines(doc: PdfDoc) {
  ensureSpace(doc, 150);
  doc.y += 14;
  const line = (role: string) => {
    paragraph(doc, `${role}: ______________________ / ________________________________ /`, {
      size: 10,
      gap: 0,
    });
    paragraph(doc, '                         (подпись)                        (расшифровка подписи)', {
      size: 7,
      gap: 10,
      color: '#555555',
    });
  };
  line('Организатор в аудитории');
  line('Организатор в аудитории');
  line('Школьный координатор');
  paragraph(doc, 'Дата: «____» ________________ 20____ г.', { size: 10 });
}

export async function protocolPdf(data: ReportProtocol): Promise<Buffer> {
  const title = `Протокол проведения диагностики ${data.diagnostic.code}`;
  const doc = createPdf({ title, subject: data.diagnostic.name });
  heading(doc, 'ПРОТОКОЛ проведения диагностики в аудитории', { align: 'center', size: 13 });
  paragraph(doc, `${data.diagnostic.name} (${data.diagnostic.code})`, { align: 'center', gap: 8 });
  const room = data.room;
  keyValues(doc, [
    ['Школа', room.schoolName ?? '—'],
    ['Здание', [room.buildingName, room.buildingAddress].filter(Boolean).join(', ') || '—'],
    ['Аудитория (класс)', room.className ?? 'всё здание'],
    ['Организаторы', data.organizers.map((o) => o.name).join(', ') || '—'],
  ]);
  if (!data.sittings.length) paragraph(doc, 'В аудитории нет зарегистрированных участников.');
  for (const s of data.sittings) {
    heading(doc, `${s.subjectTestName} — ${displayDate(s.testDate)}`, { size: 11.5 });
    keyValues(
      doc,
      [
        ['Продолжительность', `${s.durationMinutes} мин`],
        ['Начало работы', `${time(s.startedAt)} (первый участник, МСК)`],
        ['Окончание работы', `${time(s.finishedAt)} (последний участник, МСК)`],
        ['Присутствовали', String(s.present)],
        ['Отсутствовали', String(s.absent)],
      ],
      { size: 9.5 },
    );
    table(
      doc,
      [
        { header: '№', weight: 0.3, align: 'right' },
        { header: 'Участник', weight: 2 },
        { header: 'Код', weight: 1.3 },
        { header: 'Класс', weight: 0.6 },
        { header: 'Явка', weight: 1.6 },
        { header: 'Начало', weight: 0.75 },
        { header: 'Конец', weight: 0.75 },
        { header: 'Завершил', weight: 1.1 },
      ],
      s.participants.map((p, i) => [
        String(i + 1),
        p.participantName,
        p.code,
        p.className ?? '',
        ATTENDANCE_WORDS[p.attendance],
        time(p.startedAt),
        time(p.finishedAt),
        p.finishReason ? (FINISH_WORDS[p.finishReason] ?? p.finishReason) : '',
      ]),
      { size: 8 },
    );
    heading(doc, 'Паузы', { size: 10, keepWith: 20 });
    if (!s.pauses.length) paragraph(doc, 'Пауз не было.', { size: 9 });
    else
      table(
        doc,
        [
          { header: 'Участник', weight: 2 },
          { header: 'С', weight: 0.6 },
          { header: 'До', weight: 0.6 },
          { header: 'Кто', weight: 1.6 },
          { header: 'Причина', weight: 2 },
        ],
        s.pauses.map((p) => [
          p.participantName,
          time(p.startedAt),
          time(p.endedAt),
          p.byStaff
            ? [p.by ?? 'организатор', p.resumedBy ? `продолжил(а): ${p.resumedBy}` : null]
                .filter(Boolean)
                .join('; ')
            : 'участник',
          p.reason ?? '',
        ]),
        { size: 8 },
      );
    heading(doc, 'Изменения времени', { size: 10, keepWith: 20 });
    if (!s.timeChanges.length) paragraph(doc, 'Время не изменялось.', { size: 9 });
    else
      table(
        doc,
        [
          { header: 'Участник', weight: 2 },
          { header: 'Когда', weight: 0.7 },
          { header: 'Изменение', weight: 1 },
          { header: 'Кто', weight: 1.6 },
          { header: 'Причина', weight: 2 },
        ],
        s.timeChanges.map((c) => [
          c.participantName,
          time(c.at),
          signedMinutes(c.deltaSeconds),
          c.by ?? '',
          c.reason ?? '',
        ]),
        { size: 8 },
      );
    heading(doc, 'Нарушения и происшествия', { size: 10, keepWith: 20 });
    if (!s.incidents.length) paragraph(doc, 'Не зафиксированы.', { size: 9 });
    else
      table(
        doc,
        [
          { header: 'Участник', weight: 2 },
          { header: 'Что', weight: 2 },
          { header: 'Раз', weight: 0.4, align: 'right' },
          { header: 'Когда', weight: 1 },
          { header: 'Примечание', weight: 1.6 },
        ],
        s.incidents.map((x) => [
          x.participantName,
          EVENT_WORDS[x.kind] ?? x.kind,
          String(x.count),
          x.firstAt === x.lastAt ? time(x.firstAt) : `${time(x.firstAt)}–${time(x.lastAt)}`,
          [x.reason, x.by ? `удалил(а): ${x.by}` : null].filter(Boolean).join('; '),
        ]),
        { size: 8 },
      );
  }
  signatureLines(doc);
  decoratePages(doc, (d, page) => {
    runningHeader(d, `${title}. ${room.schoolName ?? ''} ${room.className ?? room.buildingName ?? ''}`);
    pageNumberFooter(d, page);
  });
  return pdfToBuffer(doc);
}

export async function protocolFile(caller: ReportCaller, query: ReportProtocolQuery): Promise<ReportFile> {
  const data = await protocolData(caller, query);
  const where = data.room.className ?? data.room.buildingName ?? '';
  return {
    fileName: `Протокол ${data.diagnostic.code} ${where}.pdf`.replace(/\s+/g, ' '),
    mime: PDF_MIME,
    body: await protocolPdf(data),
  };
}

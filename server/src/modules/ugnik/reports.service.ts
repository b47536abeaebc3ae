import { PARTICIPANT_STATUS_RU, personName, UGNIK_SURNAMES_HEADERS_RU as U } from '@attesta/contract';
import type { UgnikSurnameRow } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import {
  createPdf,
  decoratePages,
  heading,
  pageNumberFooter,
  paragraph,
  pdfToBuffer,
  runningHeader,
  table,
} from '../../lib/pdf/index.js';
import { buildWorkbook, dayColumn, sheet, XLSX_MIME as XLSX } from '../../lib/xlsx.js';
import * as repo from './ugnik.repo.js';

/*
 * The ugnik's reports on one of its diagnostics (the route's scope rule has checked ownership).
 * Spreadsheets go through lib/xlsx, whose text cells never start a formula.
 */

export interface ReportFile {
  fileName: string;
  mime: string;
  data: Buffer;
}

const PDF_MIME = 'application/pdf';

const fullName = (r: repo.ReportRow) =>
  [r.surname, r.name, r.patronymic].filter(Boolean).join(' ') || 'Обезличенный участник';
const dmy = (isoDate: string) => isoDate.split('-').reverse().join('.');

async function diagnosticWithRows(ctx: AppContext, diagnosticId: number) {
  const diagnostic = await repo.findDiagnostic(ctx.db, diagnosticId);
  if (!diagnostic) throw notFound('No such diagnostic');
  return { diagnostic, rows: await repo.reportRows(ctx.db, diagnosticId) };
}

/** Activation and registration codes of every participant, as xlsx or a printable PDF table. */
export async function participantCodes(
  ctx: AppContext,
  diagnosticId: number,
  format: 'pdf' | 'xlsx',
): Promise<ReportFile> {
  const { diagnostic, rows } = await diagnosticWithRows(ctx, diagnosticId);
  const base = `Коды участников ${diagnostic.code}`;
  if (format === 'xlsx') {
    const data = await buildWorkbook([
      sheet({
        name: 'Коды участников',
        title: [`${diagnostic.name} (${diagnostic.code})`],
        rows,
        columns: [
          { header: 'Школа', width: 36, value: (r) => r.schoolName },
          { header: 'Класс', width: 10, value: (r) => r.className },
          { header: 'Участник', width: 36, value: fullName },
          { header: 'Тест', width: 30, value: (r) => r.subjectTestName },
          dayColumn('Дата', (r: { testDate: string }) => r.testDate),
          { header: 'Код активации', width: 16, value: (r) => r.activationCode },
          { header: 'Регистрационный код', width: 18, value: (r) => r.registrationCode },
        ],
      }),
    ]);
    return { fileName: `${base}.xlsx`, mime: XLSX, data };
  }
  const doc = createPdf({ title: base, subject: diagnostic.name });
  heading(doc, 'Коды участников');
  paragraph(doc, `${diagnostic.name} (${diagnostic.code}), участников: ${rows.length}`);
  table(
    doc,
    [
      { header: 'Школа', weight: 2.2 },
      { header: 'Класс', weight: 0.8 },
      { header: 'Участник', weight: 2.2 },
      { header: 'Тест', weight: 1.8 },
      { header: 'Дата', weight: 1 },
      { header: 'Код активации', weight: 1.4, font: 'bold' },
    ],
    rows.map((r) => [
      r.schoolName ?? '',
      r.className ?? '',
      fullName(r),
      r.subjectTestName,
      dmy(r.testDate),
      r.activationCode,
    ]),
  );
  decoratePages(doc, (d, page) => {
    runningHeader(d, `${diagnostic.name} (${diagnostic.code})`);
    pageNumberFooter(d, page);
  });
  return { fileName: `${base}.pdf`, mime: PDF_MIME, data: await pdfToBuffer(doc) };
}

/**
 * Participants with surnames, school, class, subject test, status and score. There is no results
 * table yet, so `score` is null for everyone until result processing stores primary scores.
 */
export async function surnames(ctx: AppContext, diagnosticId: number) {
  const { diagnostic, rows } = await diagnosticWithRows(ctx, diagnosticId);
  const items: UgnikSurnameRow[] = rows.map((r) => ({
    participantTestId: r.participantTestId,
    surname: r.surname,
    name: r.name,
    patronymic: r.patronymic,
    schoolName: r.schoolName,
    className: r.className,
    subjectTestName: r.subjectTestName,
    testDate: r.testDate,
    status: r.status,
    activationCode: r.activationCode,
    score: null,
  }));
  return { diagnostic: { id: diagnostic.id, code: diagnostic.code, name: diagnostic.name }, items };
}

export async function surnamesXlsx(ctx: AppContext, diagnosticId: number): Promise<ReportFile> {
  const report = await surnames(ctx, diagnosticId);
  const data = await buildWorkbook([
    sheet({
      name: 'Участники',
      title: [`${report.diagnostic.name} (${report.diagnostic.code})`],
      rows: report.items,
      columns: [
        // The columns, words and formats of the screen's table (issue 23, item 6).
        { header: U.participant, width: 36, value: (r) => personName(r) },
        { header: U.school, width: 36, value: (r) => r.schoolName },
        { header: U.class, width: 10, value: (r) => r.className },
        { header: U.subjectTest, width: 30, value: (r) => r.subjectTestName },
        dayColumn(U.testDate, (r: { testDate: string }) => r.testDate),
        {
          header: U.status,
          width: 24,
          value: (r) => PARTICIPANT_STATUS_RU[r.status as keyof typeof PARTICIPANT_STATUS_RU] ?? null,
        },
        { header: U.activationCode, width: 16, value: (r) => r.activationCode },
        { header: U.score, width: 14, value: (r) => r.score },
      ],
    }),
  ]);
  return { fileName: `Участники ${report.diagnostic.code}.xlsx`, mime: XLSX, data };
}

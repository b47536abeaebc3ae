import {
  MM,
  MUTED,
  createPdf,
  decoratePages,
  drawQr,
  heading,
  keyValues,
  pageNumberFooter,
  paragraph,
  pdfToBuffer,
  table,
} from '../../lib/pdf/index.js';
import type { ExamResult } from '@attesta/contract';

/*
 * The printable result report (справка о результатах): header, totals, per task and per element
 * tables, and the verification code as text and as a QR code of the public verification page.
 */

/** Levels of the equated scale as documents name them. */
const SCALE_LEVELS = {
  below_basic: 'ниже базового',
  basic: 'базовый',
  advanced: 'повышенный',
  high: 'высокий',
} as const;

export interface ResultDocInput {
  result: ExamResult;
  diagnosticName: string;
  participantName: string;
  schoolName: string | null;
  className: string | null;
  testDate: string;
  /** `${origin}/verify/<code>` */
  verifyUrl: string;
  /** Pre-professional layout: the two parts' totals. */
  parts?: {
    theory: { score: number; maxScore: number; percent: number };
    practice: { score: number; maxScore: number; percent: number };
  };
}

const num = (n: number) => String(n).replace('.', ',');
const dmy = (d: string) => d.split('-').reverse().join('.');

const STATUS_RU: Record<string, string> = {
  auto: 'автоматически',
  awaiting_experts: 'ожидает проверки',
  expert: 'эксперт',
};

export async function resultPdf(input: ResultDocInput): Promise<Buffer> {
  const r = input.result;
  const doc = createPdf({
    title: `Результат: ${input.participantName}, ${r.subjectTestName}`,
    subject: input.diagnosticName,
  });
  const qrSize = 28 * MM;
  const top = doc.y;
  drawQr(doc, input.verifyUrl, doc.page.width - doc.page.margins.right - qrSize, top - 6 * MM, qrSize);
  doc.y = top;
  heading(doc, input.parts ? 'Результат предпрофессионального экзамена' : 'Результат диагностики', {
    size: 15,
  });
  paragraph(doc, input.diagnosticName, { color: MUTED, size: 10 });
  doc.y = Math.max(doc.y, top + qrSize - 4 * MM);
  keyValues(doc, [
    ['Участник', input.participantName],
    ['Образовательная организация', input.schoolName ?? '—'],
    ['Класс', input.className ?? '—'],
    ['Предмет', r.subjectTestName],
    ['Дата', dmy(input.testDate)],
    ['Первичный балл', `${num(r.primaryScore)} из ${num(r.maxScore)} (${num(r.percent)}%)`],
    ['Отметка', r.mark ?? (r.status === 'scored' ? '—' : 'ожидает проверки экспертами')],
    ['Уровень', r.level ?? '—'],
    // the scaled score once an equating table is adopted (issue 28), and which table
    ...(r.scaled
      ? ([
          [
            'Балл по единой шкале',
            `${num(r.scaled.scaled)} ± ${num(r.scaled.csem)} (в баллах варианта ${r.scaled.referenceNumber}; таблица пересчёта, версия ${r.scaled.equatingVersion})`,
          ],
          ...(r.scaled.level ? [['Уровень по шкале', SCALE_LEVELS[r.scaled.level]]] : []),
        ] as [string, string][])
      : []),
  ]);
  if (input.parts) {
    heading(doc, 'Части экзамена', { size: 12 });
    table(
      doc,
      [
        { header: 'Часть', weight: 2 },
        { header: 'Балл', align: 'center' },
        { header: 'Процент', align: 'center' },
      ],
      [
        [
          'Теоретическая',
          `${num(input.parts.theory.score)} из ${num(input.parts.theory.maxScore)}`,
          `${num(input.parts.theory.percent)}%`,
        ],
        [
          'Практическая',
          `${num(input.parts.practice.score)} из ${num(input.parts.practice.maxScore)}`,
          `${num(input.parts.practice.percent)}%`,
        ],
      ],
    );
  }
  heading(doc, 'Баллы по заданиям', { size: 12 });
  table(
    doc,
    [
      { header: '№', align: 'center', weight: 0.6 },
      { header: 'Балл', align: 'center' },
      { header: 'Максимум', align: 'center' },
      { header: 'Проверка', weight: 1.6 },
    ],
    r.tasks.map((t) => [
      String(t.position),
      t.score === null ? '—' : num(t.score),
      num(t.maxScore),
      STATUS_RU[t.status] ?? t.status,
    ]),
  );
  if (r.elements.length) {
    heading(doc, 'По элементам содержания', { size: 12 });
    table(
      doc,
      [
        { header: 'Код', weight: 0.7 },
        { header: 'Элемент', weight: 3 },
        { header: 'Балл', align: 'center' },
      ],
      r.elements.map((e) => [e.code, e.name, `${num(e.score)} из ${num(e.max)}`]),
    );
  }
  paragraph(doc, `Код проверки подлинности: ${r.verificationCode}`, { font: 'bold', size: 11 });
  paragraph(doc, `Проверить справку: ${input.verifyUrl}`, { color: MUTED, size: 9 });
  decoratePages(doc, pageNumberFooter);
  return pdfToBuffer(doc);
}

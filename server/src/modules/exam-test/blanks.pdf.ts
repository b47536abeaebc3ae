import { contentSchemaFor, type AnswerType, type TaskContent } from '@attesta/contract';
import {
  MM,
  MUTED,
  contentWidth,
  createPdf,
  decoratePages,
  drawPageCode,
  ensureSpace,
  heading,
  keyValues,
  pageNumberFooter,
  paragraph,
  pdfToBuffer,
  type PdfDoc,
} from '../../lib/pdf/index.js';
import { htmlToText } from '../../lib/sanitize.js';
import { formatBlankCode } from './blanks.code.js';
import type { BlankForm, BlankTask } from './blanks.service.js';

/*
 * Layout of the answer form (бланк ответов). Every page carries, in its top margin, a QR code with
 * the page code and a short header, so a loose scanned page still names its work and page.
 * A task's answer area is never split across pages. Only participant-visible task content is
 * used (option and item texts); reference answers never reach this file.
 */

const QR_SIZE = 24 * MM;
const MARGINS = { top: 38 * MM, bottom: 16 * MM, left: 18 * MM, right: 15 * MM };

/**
 * Sizes of the form. The large-print form (a participant whose accommodations profile has large
 * text, docs/accommodations.md) has bigger type, cells and line spacing, so it takes more pages.
 */
interface Print {
  /** The column of the task's number, left of its answer area. */
  labelWidth: number;
  cell: number;
  lineStep: number;
  /** Font sizes are multiplied by it. */
  scale: number;
}
const REGULAR_PRINT: Print = { labelWidth: 27 * MM, cell: 7 * MM, lineStep: 8 * MM, scale: 1 };
const LARGE_PRINT: Print = { labelWidth: 38 * MM, cell: 10 * MM, lineStep: 12 * MM, scale: 1.4 };
/** Letters for options and matching rows; look-alikes of digits and each other (З, Й, Ъ, Ы, Ь, Ё) left out. */
const LETTERS = 'АБВГДЕЖИКЛМНОПРСТУФХЦЧШЩЭЮ';

const INSTRUCTIONS = [
  'Пишите чёрной или синей гелевой (капиллярной) ручкой, разборчиво, печатными буквами.',
  'В клеточки пишите по одному символу (цифре, букве, знаку «минус» или запятой), начиная с первой клеточки.',
  'В заданиях с выбором ответа обведите букву выбранного ответа (или буквы всех выбранных).',
  'Чтобы исправить ответ, зачеркните неверный и напишите верный рядом, в пределах поля задания.',
  'Не делайте пометок в области QR-кода и не сгибайте бланк.',
];

interface Box {
  x: number;
  y: number;
  width: number;
}

/** Draws (or, with draw = false, only measures) an answer area; returns the height it takes. */
type Area = (doc: PdfDoc, box: Box, draw: boolean) => number;

interface AreaSpec {
  hint: string;
  area: Area;
}

/** Plain, single-spaced text of an html fragment, shortened to fit a line or two. */
function plain(html: string, max = 160): string {
  const text = htmlToText(html).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function small(
  doc: PdfDoc,
  p: Print,
  text: string,
  x: number,
  y: number,
  width: number,
  draw: boolean,
): number {
  doc.font('regular').fontSize(9 * p.scale);
  if (draw) doc.fillColor('#111111').text(text, x, y, { width, lineGap: 1 });
  return doc.heightOfString(text, { width, lineGap: 1 });
}

/** A row (or rows) of handwriting cells, `count` of them, wrapped to the width. */
function cells(p: Print, count: number, suffix?: string): Area {
  const CELL = p.cell;
  return (doc, box, draw) => {
    const suffixWidth = suffix
      ? doc
          .font('regular')
          .fontSize(10 * p.scale)
          .widthOfString(suffix) + 6
      : 0;
    const perRow = Math.max(1, Math.floor((box.width - suffixWidth) / CELL));
    const rows = Math.ceil(count / perRow);
    if (draw) {
      doc.lineWidth(0.8).strokeColor('#333333');
      for (let i = 0; i < count; i++) {
        const row = Math.floor(i / perRow);
        doc.rect(box.x + (i % perRow) * CELL, box.y + row * (CELL + 2), CELL, CELL).stroke();
      }
      if (suffix) {
        const lastRowCells = count - (rows - 1) * perRow;
        doc
          .font('regular')
          .fontSize(10 * p.scale)
          .fillColor('#111111')
          .text(
            suffix,
            box.x + lastRowCells * CELL + 6,
            box.y + (rows - 1) * (CELL + 2) + CELL / 2 - 5 * p.scale,
            {
              lineBreak: false,
            },
          );
      }
    }
    return rows * (CELL + 2) - 2;
  };
}

/** Labelled choices to circle: «А  option text». */
function choices(p: Print, labels: string[], texts: string[]): Area {
  const labelWidth = 20 * p.scale;
  return (doc, box, draw) => {
    let y = box.y;
    labels.forEach((label, i) => {
      doc.font('bold').fontSize(11 * p.scale);
      if (draw)
        doc.fillColor('#111111').text(label, box.x + 2, y, { width: labelWidth - 6, lineBreak: false });
      const height = texts[i]
        ? small(doc, p, texts[i], box.x + labelWidth, y + 1, box.width - labelWidth, draw)
        : 0;
      y += Math.max(14 * p.scale, height) + 3;
    });
    return y - box.y - 3;
  };
}

/** Ruled lines for a written answer. */
function ruled(p: Print, count: number): Area {
  const LINE_STEP = p.lineStep;
  return (doc, box, draw) => {
    if (draw) {
      doc.lineWidth(0.5).strokeColor('#888888');
      for (let i = 1; i <= count; i++) {
        const y = box.y + i * LINE_STEP;
        doc
          .moveTo(box.x, y)
          .lineTo(box.x + box.width, y)
          .stroke();
      }
    }
    return count * LINE_STEP + 2;
  };
}

/** Areas one under another, with a little air between them. */
function stack(...areas: Area[]): Area {
  return (doc, box, draw) => {
    let y = box.y;
    for (const area of areas) y += area(doc, { ...box, y }, draw) + 4;
    return y - box.y - 4;
  };
}

function note(p: Print, text: string): Area {
  return (doc, box, draw) => small(doc, p, text, box.x, box.y, box.width, draw);
}

/** A table of letter headers with one empty cell under each (matching answers). */
function letterGrid(p: Print, letters: string[]): Area {
  const CELL = p.cell;
  return (doc, box, draw) => {
    const perRow = Math.max(1, Math.floor(box.width / CELL));
    const rows = Math.ceil(letters.length / perRow);
    if (draw) {
      letters.forEach((letter, i) => {
        const x = box.x + (i % perRow) * CELL;
        const y = box.y + Math.floor(i / perRow) * (2 * CELL + 4);
        doc
          .lineWidth(0.8)
          .strokeColor('#333333')
          .rect(x, y, CELL, CELL)
          .stroke()
          .rect(x, y + CELL, CELL, CELL)
          .stroke();
        doc
          .font('bold')
          .fontSize(10 * p.scale)
          .fillColor('#111111')
          .text(letter, x, y + CELL / 2 - 5 * p.scale, { width: CELL, align: 'center', lineBreak: false });
      });
    }
    return rows * (2 * CELL + 4) - 4;
  };
}

const numbersOf = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

function parse<T extends AnswerType>(type: T, content: Record<string, unknown>): TaskContent<T> | null {
  const result = contentSchemaFor(type).safeParse(content);
  return result.success ? (result.data as TaskContent<T>) : null;
}

/** The hint and the answer area of a task, by its answer type. */
function areaOf(task: BlankTask, registrationCode: string, p: Print): AreaSpec {
  const { answerType: type, content } = task;
  switch (type) {
    case 'single_choice':
    case 'multiple_choice': {
      const options = parse(type, content)?.options ?? [];
      return {
        hint:
          type === 'single_choice'
            ? 'Обведите букву одного верного ответа.'
            : 'Обведите буквы всех верных ответов.',
        area: choices(
          p,
          options.map((_, i) => LETTERS[i] ?? String(i + 1)),
          options.map((o) => plain(o.html)),
        ),
      };
    }
    case 'digit_sequence': {
      const length = parse(type, content)?.length;
      return {
        hint: 'Запишите цифры ответа в клеточки, по одной в каждой, без пробелов и запятых.',
        area: cells(p, length ?? 12),
      };
    }
    case 'short_text': {
      const maxLength = parse(type, content)?.maxLength ?? 20;
      return {
        hint: 'Запишите ответ в клеточки, по одному символу в каждой.',
        area: cells(p, Math.min(maxLength, 24)),
      };
    }
    case 'number': {
      const unit = parse(type, content)?.unit;
      return {
        hint: 'Запишите число; знак «минус» и запятую — в отдельных клеточках.',
        area: cells(p, 12, unit),
      };
    }
    case 'ordering': {
      const items = parse(type, content)?.items ?? [];
      return {
        hint: 'Запишите номера элементов в нужном порядке, по одному в клеточке.',
        area: stack(
          choices(
            p,
            numbersOf(items.length),
            items.map((i) => plain(i.html)),
          ),
          cells(p, Math.max(items.length, 2)),
        ),
      };
    }
    case 'matching': {
      const parsed = parse(type, content);
      const left = parsed?.left ?? [];
      const right = parsed?.right ?? [];
      const letters = left.map((_, i) => LETTERS[i] ?? String(i + 1));
      return {
        hint: 'Под каждой буквой запишите номер соответствующего ответа.',
        area: stack(
          choices(
            p,
            letters,
            left.map((l) => plain(l.html)),
          ),
          choices(
            p,
            numbersOf(right.length),
            right.map((r) => plain(r.html)),
          ),
          letterGrid(p, letters),
        ),
      };
    }
    case 'cloze': {
      const blanks = parse(type, content)?.blanks ?? [];
      return {
        hint: 'Заполните пропуски: впишите ответ в клеточки или обведите букву выбранного варианта.',
        area: stack(
          ...blanks.flatMap((blank, i) => [
            note(p, `Пропуск ${i + 1}`),
            blank.kind === 'choice'
              ? choices(
                  p,
                  blank.options.map((_, j) => LETTERS[j] ?? String(j + 1)),
                  blank.options.map((o) => plain(o.text, 80)),
                )
              : cells(p, Math.min(blank.width ?? 16, 24)),
          ]),
        ),
      };
    }
    case 'extended_text':
      return {
        hint: 'Запишите развёрнутый ответ разборчиво. Если места не хватит, продолжите на дополнительном листе.',
        area: ruled(p, 14),
      };
    case 'file':
      return {
        hint: 'Ответ выполняется на отдельном листе.',
        area: note(
          p,
          `Прикрепите лист с ответом к бланку. На листе укажите регистрационный код ${registrationCode} ` +
            `и номер задания ${task.number}.`,
        ),
      };
    default:
      return { hint: 'Запишите ответ в клеточки.', area: cells(p, 16) };
  }
}

function drawTask(doc: PdfDoc, task: BlankTask, registrationCode: string, p: Print): void {
  const { hint, area } = areaOf(task, registrationCode, p);
  const left = doc.page.margins.left;
  const box = { x: left + p.labelWidth, width: contentWidth(doc) - p.labelWidth };
  doc.font('italic').fontSize(8.5 * p.scale);
  const hintHeight = doc.heightOfString(hint, { width: box.width }) + 4;
  const height = hintHeight + area(doc, { ...box, y: 0 }, false) + 6 * MM;
  ensureSpace(doc, height);

  const top = doc.y;
  doc
    .moveTo(left, top)
    .lineTo(left + contentWidth(doc), top)
    .lineWidth(0.4)
    .strokeColor('#bbbbbb')
    .stroke();
  doc
    .font('bold')
    .fontSize(10 * p.scale)
    .fillColor('#111111')
    .text(`Задание ${task.number}`, left, top + 3 * MM, { width: p.labelWidth - 4, lineBreak: false });
  doc
    .font('italic')
    .fontSize(8.5 * p.scale)
    .fillColor(MUTED)
    .text(hint, box.x, top + 3 * MM, { width: box.width });
  const used = area(doc, { ...box, y: top + 3 * MM + hintHeight }, true);
  doc.x = left;
  doc.y = top + 3 * MM + hintHeight + used + 3 * MM;
}

function drawTitle(doc: PdfDoc, form: BlankForm, p: Print): void {
  heading(doc, 'БЛАНК ОТВЕТОВ', { size: 15 * p.scale, align: 'center', keepWith: 0 });
  if (form.largePrint) paragraph(doc, 'Крупный шрифт', { font: 'bold', size: 12, gap: 2 * MM });
  keyValues(doc, [
    ['Диагностика', form.diagnosticName],
    ['Работа', form.subjectTestName],
    ['Дата', form.date],
    ['Школа', form.schoolName ?? '—'],
    ['Класс', form.className ?? '—'],
    ['Участник', form.participantName],
    ['Регистрационный код', form.registrationCode],
    ['Вариант', String(form.variantNumber)],
  ]);
  paragraph(doc, 'Инструкция', { font: 'bold', size: 10 * p.scale, gap: 2 });
  paragraph(doc, INSTRUCTIONS.map((line) => `•  ${line}`).join('\n'), { size: 9 * p.scale, gap: 4 * MM });
}

function drawPageHeader(doc: PdfDoc, form: BlankForm, page: { pageNumber: number; pageCount: number }): void {
  const { left, right } = doc.page.margins;
  const qrX = doc.page.width - right - QR_SIZE;
  const qrY = 7 * MM;
  drawPageCode(
    doc,
    formatBlankCode({
      registrationCode: form.registrationCode,
      examWorkId: form.examWorkId,
      page: page.pageNumber,
    }),
    qrX,
    qrY,
    QR_SIZE,
  );
  const width = qrX - left - 6 * MM;
  doc
    .font('bold')
    .fontSize(12)
    .fillColor('#111111')
    .text('Бланк ответов', left, qrY + 2 * MM, { width, lineBreak: false });
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(`${form.diagnosticName} · ${form.subjectTestName}`, left, qrY + 8 * MM, {
      width,
      height: 22,
      ellipsis: true,
    });
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#111111')
    .text(
      `Рег. код ${form.registrationCode}  ·  вариант ${form.variantNumber}  ·  лист ${page.pageNumber} из ${page.pageCount}`,
      left,
      qrY + 17 * MM,
      { width, lineBreak: false },
    );
}

/** The answer forms of one work as a PDF. */
export async function renderBlankForm(form: BlankForm): Promise<Buffer> {
  const doc = createPdf({
    title: `Бланк ответов ${form.registrationCode}`,
    subject: `${form.diagnosticName} — ${form.subjectTestName}`,
    margins: MARGINS,
  });
  const print = form.largePrint ? LARGE_PRINT : REGULAR_PRINT;
  drawTitle(doc, form, print);
  for (const task of form.tasks) drawTask(doc, task, form.registrationCode, print);
  decoratePages(doc, (d, page) => {
    drawPageHeader(d, form, page);
    pageNumberFooter(d, page);
  });
  return pdfToBuffer(doc);
}

import { contentSchemaFor, type AnswerType, type BlankLayout, type TaskContent } from '@attesta/contract';
import {
  MM,
  MUTED,
  contentBottom,
  contentWidth,
  createPdf,
  decoratePages,
  drawQr,
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
import { Sheet, layoutVersionOf } from './blanks.sheet.js';

/** One numbered answer area of the form. `content` is the participant-visible part of the task. */
export interface BlankTask {
  /** The task's number in the variant (1-based), as the participant sees it on screen. */
  number: number;
  variantTaskId: number;
  answerType: AnswerType;
  content: Record<string, unknown>;
  /** Columns of the digit grid (number and digit-sequence tasks), derived from the key here. */
  digitColumns?: number;
}

/** What an answer form shows: header facts and the tasks to answer on paper. Nothing secret. */
export interface BlankForm {
  examWorkId: number;
  registrationCode: string;
  diagnosticName: string;
  subjectTestName: string;
  /** dd.mm.yyyy */
  date: string;
  schoolName: string | null;
  className: string | null;
  participantName: string;
  variantNumber: number;
  /** The large-print form: an accommodations profile with large text (docs/accommodations.md). */
  largePrint: boolean;
  tasks: BlankTask[];
}

/*
 * Layout of the answer form (бланк ответов), one pass for the PDF and its layout data: every
 * bubble, box and mark goes through Sheet (blanks.sheet.ts), which draws it and records where.
 * Every page carries four corner marks and, in its top margin, a QR code with the page code
 * (blanks.code.ts) and a short header, so a loose scanned page still names its work, page and
 * layout. A task's answer area starts on a new page when it does not fit; only one taller than a
 * page goes on to the next, between rows or blocks. Automatically scored tasks are
 * answered with bubbles (choices; matching and ordering as grids; numbers and digit sequences as
 * digit grids), short texts in framed cells, expert-graded answers in a framed area. Only
 * participant-visible task content is used; a digit grid's column count comes from the service,
 * which alone reads the key for it.
 */

const QR_SIZE = 24 * MM;
const MARGINS = { top: 38 * MM, bottom: 16 * MM, left: 18 * MM, right: 15 * MM };

/**
 * Sizes of the form. The large-print form (a participant whose accommodations profile has large
 * text, docs/accommodations.md) has bigger type, cells, bubbles and line spacing, so it takes more
 * pages.
 */
interface Print {
  /** The column of the task's number, left of its answer area. */
  labelWidth: number;
  cell: number;
  lineStep: number;
  /** Font sizes are multiplied by it. */
  scale: number;
  /** Bubble radius (to the middle of the ring) and the distance between bubble centres. */
  r: number;
  pitch: number;
}
const REGULAR_PRINT: Print = {
  labelWidth: 27 * MM,
  cell: 7 * MM,
  lineStep: 8 * MM,
  scale: 1,
  r: 2.3 * MM,
  pitch: 6 * MM,
};
const LARGE_PRINT: Print = {
  labelWidth: 38 * MM,
  cell: 10 * MM,
  lineStep: 12 * MM,
  scale: 1.4,
  r: 3.2 * MM,
  pitch: 8.4 * MM,
};
/** Letters for options and matching rows; look-alikes of digits and each other (З, Й, Ъ, Ы, Ь, Ё) left out. */
const LETTERS = 'АБВГДЕЖИКЛМНОПРСТУФХЦЧШЩЭЮ';
const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
const INK = '#111111';

const INSTRUCTIONS = [
  'Пишите чёрной гелевой (капиллярной) ручкой, разборчиво, печатными буквами.',
  'Выбранный ответ отмечайте, закрашивая кружок целиком, не выходя за его край. Кружок со своей буквой или цифрой — один вариант ответа.',
  'Числовой ответ впишите в клеточки над столбцами, по одной цифре слева направо, и в каждом столбце закрасьте ту же цифру; для отрицательного числа закрасьте «−», для дробного — запятую между столбцами.',
  'Текстовый ответ пишите в клеточки внутри рамки, по одному символу в каждой; развёрнутый ответ — внутри рамки задания.',
  'Чтобы исправить ответ в клеточках, зачеркните неверный и напишите верный рядом, в пределах рамки. Ошибочно закрашенный кружок исправить нельзя: попросите у организатора новый бланк.',
  'Не делайте пометок в области QR-кода и чёрных квадратов в углах листа, не сгибайте и не мните бланк.',
];

interface Box {
  x: number;
  y: number;
  width: number;
}

/**
 * Draws an answer area into `sheet` from `box.y` on (or, with no sheet, only measures it); returns
 * the y where it ends. Measuring and drawing run the same code. An area taller than what is left of
 * the page goes on on the next one between its rows or blocks (`room`), so only a task taller than
 * a page is ever split — never a bubble, a box or a digit column.
 */
type Area = (doc: PdfDoc, box: Box, sheet: Sheet | null) => number;

/** Where a piece `height` tall starts: at `y`, or, drawing, on a new page when it does not fit. */
function room(doc: PdfDoc, sheet: Sheet | null, y: number, height: number): number {
  if (!sheet || y + height <= contentBottom(doc)) return y;
  doc.addPage();
  return doc.page.margins.top;
}

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
  if (draw) doc.fillColor(INK).text(text, x, y, { width, lineGap: 1 });
  return doc.heightOfString(text, { width, lineGap: 1 });
}

/** Handwriting cells in light grey, `count` of them from (x, y), wrapped at `perRow`. */
function drawCells(doc: PdfDoc, x: number, y: number, size: number, count: number, perRow: number): void {
  doc.save().lineWidth(0.6).strokeColor('#999999');
  for (let i = 0; i < count; i++)
    doc.rect(x + (i % perRow) * size, y + Math.floor(i / perRow) * size, size, size).stroke();
  doc.restore();
}

/**
 * A framed row (or rows) of handwriting cells, `count` of them: a short text answer to key in
 * from the crop of its frame.
 */
function textBox(p: Print, variantTaskId: number, count: number, part?: string): Area {
  const CELL = p.cell;
  const pad = 1.5 * MM;
  return (doc, box, sheet) => {
    const perRow = Math.max(1, Math.min(count, Math.floor((box.width - 2 * pad) / CELL)));
    const rows = Math.ceil(count / perRow);
    const w = perRow * CELL + 2 * pad;
    const h = rows * CELL + 2 * pad;
    const y = room(doc, sheet, box.y, h);
    if (sheet) {
      sheet.box({ variantTaskId, kind: 'text', part, x: box.x, y, w, h });
      drawCells(doc, box.x + pad, y + pad, CELL, count, perRow);
    }
    return y + h;
  };
}

/** A framed area for an answer experts grade: ruled lines to write on, or blank (a drawing). */
function essayBox(p: Print, variantTaskId: number, height: number, ruledLines: number): Area {
  return (doc, box, sheet) => {
    const top = room(doc, sheet, box.y, height);
    if (sheet) {
      sheet.box({ variantTaskId, kind: 'essay', x: box.x, y: top, w: box.width, h: height });
      doc.save().lineWidth(0.5).strokeColor('#999999');
      for (let i = 1; i <= ruledLines; i++) {
        const y = top + i * p.lineStep;
        doc
          .moveTo(box.x + 2 * MM, y)
          .lineTo(box.x + box.width - 2 * MM, y)
          .stroke();
      }
      doc.restore();
    }
    return top + height;
  };
}

interface Choice {
  value: string;
  label: string;
  text: string;
}

/** Choices one under another, each a bubble with its letter and the option's text beside it. */
function bubbleList(p: Print, variantTaskId: number, list: Choice[]): Area {
  const textX = p.pitch + 2 * MM;
  return (doc, box, sheet) => {
    let y = box.y;
    for (const choice of list) {
      const textWidth = box.width - textX;
      const rowHeight = Math.max(
        2 * p.r + 2,
        choice.text ? small(doc, p, choice.text, 0, 0, textWidth, false) : 0,
      );
      y = room(doc, sheet, y, rowHeight);
      if (choice.text && sheet)
        small(doc, p, choice.text, box.x + textX, y + p.r - 4.5 * p.scale, textWidth, true);
      sheet?.bubble({
        variantTaskId,
        value: choice.value,
        x: box.x + p.pitch / 2,
        y: y + p.r + 1,
        r: p.r,
        label: choice.label,
      });
      y += rowHeight + 2.5;
    }
    return y - 2.5;
  };
}

/** Labelled texts (no bubbles): the two sides of a matching task, the items of an ordering one. */
function legend(p: Print, labels: string[], texts: string[]): Area {
  const labelWidth = 20 * p.scale;
  return (doc, box, sheet) => {
    let y = box.y;
    labels.forEach((label, i) => {
      const text = texts[i];
      const textWidth = box.width - labelWidth;
      const rowHeight = Math.max(14 * p.scale, text ? small(doc, p, text, 0, 0, textWidth, false) : 0);
      y = room(doc, sheet, y, rowHeight);
      if (sheet) {
        doc
          .font('bold')
          .fontSize(11 * p.scale)
          .fillColor(INK)
          .text(label, box.x + 2, y, { width: labelWidth - 6, lineBreak: false });
        if (text) small(doc, p, text, box.x + labelWidth, y + 1, textWidth, true);
      }
      y += rowHeight + 3;
    });
    return y - 3;
  };
}

interface Axis {
  label: string;
  key: string;
}

/**
 * A grid of bubbles: a row per `rows` entry (its label at the left), a bubble per column in it
 * with the column's label inside; `value(row, col)` is what a filled bubble means. Columns that do
 * not fit the width go on in another block below, rows repeated.
 */
function bubbleGrid(
  p: Print,
  variantTaskId: number,
  rows: Axis[],
  cols: Axis[],
  value: (row: Axis, col: Axis) => string,
): Area {
  const rowLabelWidth = 8 * MM * p.scale;
  return (doc, box, sheet) => {
    const perBlock = Math.max(1, Math.floor((box.width - rowLabelWidth) / p.pitch));
    const blocks = Math.ceil(cols.length / perBlock);
    const blockGap = 3 * MM;
    let y = box.y - blockGap;
    for (let b = 0; b < blocks; b++) {
      y += blockGap;
      for (const row of rows) {
        y = room(doc, sheet, y, p.pitch);
        if (sheet) {
          const cy = y + p.pitch / 2;
          doc
            .font('bold')
            .fontSize(10 * p.scale)
            .fillColor(INK)
            .text(row.label, box.x, cy - 5.6 * p.scale, { width: rowLabelWidth - 2 * MM, lineBreak: false });
          cols.slice(b * perBlock, (b + 1) * perBlock).forEach((col, j) =>
            sheet.bubble({
              variantTaskId,
              value: value(row, col),
              x: box.x + rowLabelWidth + j * p.pitch + p.pitch / 2,
              y: cy,
              r: p.r,
              label: col.label,
            }),
          );
        }
        y += p.pitch;
      }
    }
    return y;
  };
}

/**
 * A grid of digit bubbles: `columns` columns of 0–9 under a row of cells to write the digits in;
 * with `number`, a «−» bubble before the first column and a row of comma bubbles between columns
 * (`comma:k`: the decimal comma after column k). Wide grids go on in another block below.
 */
function digitGrid(p: Print, variantTaskId: number, columns: number, number: boolean, unit?: string): Area {
  const lead = number ? p.pitch : 0;
  return (doc, box, sheet) => {
    const suffixWidth = unit
      ? doc
          .font('regular')
          .fontSize(10 * p.scale)
          .widthOfString(unit) +
        3 * MM
      : 0;
    const perBlock = Math.max(1, Math.floor((box.width - lead - suffixWidth) / p.pitch));
    const blocks = Math.ceil(columns / perBlock);
    const rows = DIGITS.length + (number ? 1 : 0);
    const blockHeight = p.pitch + 1 * MM + rows * p.pitch;
    const blockGap = 3 * MM;
    let y = box.y - blockGap;
    for (let b = 0; b < blocks; b++) {
      const top = room(doc, sheet, y + blockGap, blockHeight);
      y = top + blockHeight;
      if (sheet) {
        const first = b * perBlock;
        const inBlock = Math.min(perBlock, columns - first);
        const gridX = box.x + lead;
        drawCells(doc, gridX, top, p.pitch, inBlock, inBlock);
        const bubblesTop = top + p.pitch + 1 * MM;
        if (number && b === 0)
          sheet.bubble({
            variantTaskId,
            value: 'sign:-',
            x: box.x + p.pitch / 2,
            y: bubblesTop + p.pitch / 2,
            r: p.r,
            label: '−',
          });
        for (let j = 0; j < inBlock; j++) {
          const column = first + j + 1;
          const cx = gridX + j * p.pitch + p.pitch / 2;
          DIGITS.forEach((digit, d) =>
            sheet.bubble({
              variantTaskId,
              value: `${column}:${digit}`,
              x: cx,
              y: bubblesTop + d * p.pitch + p.pitch / 2,
              r: p.r,
              label: digit,
            }),
          );
          if (number && j < inBlock - 1)
            sheet.bubble({
              variantTaskId,
              value: `comma:${column}`,
              x: cx + p.pitch / 2,
              y: bubblesTop + DIGITS.length * p.pitch + p.pitch / 2,
              r: p.r,
              label: ',',
            });
        }
        if (unit && b === blocks - 1)
          doc
            .font('regular')
            .fontSize(10 * p.scale)
            .fillColor(INK)
            .text(unit, gridX + inBlock * p.pitch + 3 * MM, top + p.pitch / 2 - 5 * p.scale, {
              lineBreak: false,
            });
      }
    }
    return y;
  };
}

/** Areas one under another, with a little air between them. */
function stack(...areas: Area[]): Area {
  return (doc, box, sheet) => {
    let y = box.y - 4;
    for (const area of areas) y = area(doc, { ...box, y: y + 4 }, sheet);
    return y;
  };
}

function note(p: Print, text: string): Area {
  return (doc, box, sheet) => {
    const y = room(doc, sheet, box.y, small(doc, p, text, 0, 0, box.width, false));
    return y + small(doc, p, text, box.x, y, box.width, !!sheet);
  };
}

const letterOf = (i: number) => LETTERS[i] ?? String(i + 1);

function parse<T extends AnswerType>(type: T, content: Record<string, unknown>): TaskContent<T> | null {
  const result = contentSchemaFor(type).safeParse(content);
  return result.success ? (result.data as TaskContent<T>) : null;
}

/** The hint and the answer area of a task, by its answer type. */
function areaOf(task: BlankTask, registrationCode: string, p: Print): AreaSpec {
  const { answerType: type, content, variantTaskId: id } = task;
  switch (type) {
    case 'single_choice':
    case 'multiple_choice': {
      const options = parse(type, content)?.options ?? [];
      return {
        hint:
          type === 'single_choice'
            ? 'Закрасьте кружок одного верного ответа.'
            : 'Закрасьте кружки всех верных ответов.',
        area: bubbleList(
          p,
          id,
          options.map((o, i) => ({ value: o.id, label: letterOf(i), text: plain(o.html) })),
        ),
      };
    }
    case 'digit_sequence':
      return {
        hint: 'Впишите цифры ответа в клеточки, по одной слева направо, и закрасьте под каждой ту же цифру.',
        area: digitGrid(p, id, task.digitColumns ?? 12, false),
      };
    case 'number': {
      const unit = parse(type, content)?.unit;
      return {
        hint: 'Впишите число в клеточки и закрасьте цифры; знак «−» и запятую — кружками.',
        area: digitGrid(p, id, task.digitColumns ?? 8, true, unit),
      };
    }
    case 'short_text': {
      const maxLength = parse(type, content)?.maxLength ?? 20;
      return {
        hint: 'Запишите ответ в клеточки внутри рамки, по одному символу в каждой.',
        area: textBox(p, id, Math.min(maxLength, 24)),
      };
    }
    case 'ordering': {
      const items = parse(type, content)?.items ?? [];
      const positions = items.map((_, i) => ({ label: String(i + 1), key: String(i + 1) }));
      return {
        hint: 'В строке каждого элемента закрасьте номер места, на котором он должен стоять.',
        area: stack(
          legend(
            p,
            items.map((_, i) => String(i + 1)),
            items.map((i) => plain(i.html)),
          ),
          bubbleGrid(
            p,
            id,
            items.map((item, i) => ({ label: String(i + 1), key: item.id })),
            positions,
            (item, position) => `${item.key}:${position.key}`,
          ),
        ),
      };
    }
    case 'matching': {
      const parsed = parse(type, content);
      const left = parsed?.left ?? [];
      const right = parsed?.right ?? [];
      return {
        hint: 'В строке каждой буквы закрасьте номер соответствующего ответа.',
        area: stack(
          legend(
            p,
            left.map((_, i) => letterOf(i)),
            left.map((l) => plain(l.html)),
          ),
          legend(
            p,
            right.map((_, i) => String(i + 1)),
            right.map((r) => plain(r.html)),
          ),
          bubbleGrid(
            p,
            id,
            left.map((l, i) => ({ label: letterOf(i), key: l.id })),
            right.map((r, i) => ({ label: String(i + 1), key: r.id })),
            (l, r) => `${l.key}:${r.key}`,
          ),
        ),
      };
    }
    case 'cloze': {
      const blanks = parse(type, content)?.blanks ?? [];
      return {
        hint: 'Заполните пропуски: впишите ответ в клеточки рамки или закрасьте кружок выбранного варианта.',
        area: stack(
          ...blanks.flatMap((blank, i) => [
            note(p, `Пропуск ${i + 1}`),
            blank.kind === 'choice'
              ? bubbleList(
                  p,
                  id,
                  blank.options.map((o, j) => ({
                    value: `${blank.id}:${o.id}`,
                    label: letterOf(j),
                    text: plain(o.text, 80),
                  })),
                )
              : textBox(p, id, Math.min(blank.width ?? 16, 24), blank.id),
          ]),
        ),
      };
    }
    case 'extended_text':
      return {
        hint: 'Запишите развёрнутый ответ разборчиво, внутри рамки. Если места не хватит, продолжите на дополнительном листе.',
        area: essayBox(p, id, 14 * p.lineStep + 2 * MM, 14),
      };
    case 'file':
      return {
        hint: 'Выполните ответ в рамке или на отдельном листе.',
        area: stack(
          note(
            p,
            `Отдельный лист прикрепите к бланку. На листе укажите регистрационный код ${registrationCode} ` +
              `и номер задания ${task.number}.`,
          ),
          essayBox(p, id, 70 * MM * p.scale, 0),
        ),
      };
    default:
      return { hint: 'Запишите ответ в клеточки внутри рамки.', area: textBox(p, id, 16) };
  }
}

function drawTask(doc: PdfDoc, sheet: Sheet, task: BlankTask, registrationCode: string, p: Print): void {
  const { hint, area } = areaOf(task, registrationCode, p);
  const left = doc.page.margins.left;
  const box = { x: left + p.labelWidth, width: contentWidth(doc) - p.labelWidth };
  doc.font('italic').fontSize(8.5 * p.scale);
  const hintHeight = doc.heightOfString(hint, { width: box.width }) + 4;
  const height = hintHeight + area(doc, { ...box, y: 0 }, null) + 6 * MM;
  // A task taller than a page starts on a page of its own and goes on to the next.
  ensureSpace(doc, Math.min(height, contentBottom(doc) - doc.page.margins.top));

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
    .fillColor(INK)
    .text(`Задание ${task.number}`, left, top + 3 * MM, { width: p.labelWidth - 4, lineBreak: false });
  doc
    .font('italic')
    .fontSize(8.5 * p.scale)
    .fillColor(MUTED)
    .text(hint, box.x, top + 3 * MM, { width: box.width });
  const end = area(doc, { ...box, y: top + 3 * MM + hintHeight }, sheet);
  doc.x = left;
  doc.y = end + 3 * MM;
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

function drawPageHeader(
  doc: PdfDoc,
  form: BlankForm,
  layoutVersion: string,
  page: { pageNumber: number; pageCount: number },
): void {
  const { left } = doc.page.margins;
  // Clear of the top right registration mark (blanks.sheet.ts) by more than its quiet zone.
  const qrX = doc.page.width - 20 * MM - QR_SIZE;
  const qrY = 9 * MM;
  const code = formatBlankCode({
    registrationCode: form.registrationCode,
    examWorkId: form.examWorkId,
    page: page.pageNumber,
    layoutVersion,
  });
  drawQr(doc, code, qrX, qrY, QR_SIZE);
  const width = qrX - left - 6 * MM;
  doc
    .font('bold')
    .fontSize(12)
    .fillColor(INK)
    .text('Бланк ответов', left, qrY + 1 * MM, { width, lineBreak: false });
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(`${form.diagnosticName} · ${form.subjectTestName}`, left, qrY + 7 * MM, {
      width,
      height: 22,
      ellipsis: true,
    });
  doc
    .font('regular')
    .fontSize(9)
    .fillColor(INK)
    .text(
      `Рег. код ${form.registrationCode}  ·  вариант ${form.variantNumber}  ·  лист ${page.pageNumber} из ${page.pageCount}`,
      left,
      qrY + 15 * MM,
      { width, lineBreak: false },
    );
  // The code in letters, for a person when the symbol is damaged.
  doc
    .font('mono')
    .fontSize(7)
    .fillColor('#000000')
    .text(code, left, qrY + 20 * MM, { width, lineBreak: false });
}

/**
 * Lays the answer forms of one work out and draws them: the PDF document (not yet ended), its
 * layout and the layout's version, all from one pass.
 */
function layOut(form: BlankForm): { doc: PdfDoc; layout: BlankLayout; layoutVersion: string } {
  const doc = createPdf({
    title: `Бланк ответов ${form.registrationCode}`,
    subject: `${form.diagnosticName} — ${form.subjectTestName}`,
    margins: MARGINS,
  });
  const sheet = new Sheet(doc);
  const print = form.largePrint ? LARGE_PRINT : REGULAR_PRINT;
  drawTitle(doc, form, print);
  for (const task of form.tasks) drawTask(doc, sheet, task, form.registrationCode, print);
  decoratePages(doc, (d, page) => sheet.marks(page.pageNumber - 1));
  const layout = { pages: sheet.pages };
  const layoutVersion = layoutVersionOf(layout);
  decoratePages(doc, (d, page) => {
    drawPageHeader(d, form, layoutVersion, page);
    pageNumberFooter(d, page);
  });
  return { doc, layout, layoutVersion };
}

/** The answer forms of one work as a PDF. */
export async function renderBlankForm(form: BlankForm): Promise<Buffer> {
  return pdfToBuffer(layOut(form).doc);
}

/** Where the marks, bubbles and boxes of the same PDF lie, with the version its codes print. */
export function blankFormLayout(form: BlankForm): { layout: BlankLayout; layoutVersion: string } {
  const { doc, layout, layoutVersion } = layOut(form);
  doc.end();
  return { layout, layoutVersion };
}

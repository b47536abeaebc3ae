import { MM, MUTED, INK, createPdf, drawQr, pdfToBuffer, type PdfDoc } from '../../lib/pdf/index.js';

/*
 * Cut-out code slips (листки с кодами активации): eight per A4 page in two columns, framed by
 * dashed cutting lines. Each names the participant, where and when they sit the test, the
 * activation code in large monospace type and a QR code that opens the login page with the code
 * filled in, plus a short instruction.
 */

export interface Slip {
  school: string;
  className: string;
  participant: string;
  subjectTest: string;
  /** "12.03.2026, 09:00–15:00 (МСК)" */
  when: string;
  activationCode: string;
  /** What the QR code opens. */
  loginUrl: string;
}

const PAGE_MARGIN = 10 * MM;
const COLUMNS = 2;
const ROWS = 4;
const PAD = 5 * MM;
const QR_SIZE = 27 * MM;

const INSTRUCTION =
  'Откройте страницу входа, выберите «Вход по коду активации» и введите код — или наведите камеру ' +
  'на QR-код. Код личный: не передавайте его другим и не теряйте до конца работы.';

/** Text of at most `lines` lines at (x, y), cut with an ellipsis beyond; returns the y below it. */
function block(
  doc: PdfDoc,
  text: string,
  at: { x: number; y: number; width: number },
  font: string,
  size: number,
  lines = 1,
) {
  doc.font(font).fontSize(size);
  const lineHeight = doc.currentLineHeight(true);
  const height = Math.min(doc.heightOfString(text, { width: at.width }), lines * lineHeight);
  doc
    .fillColor(INK)
    .text(text, at.x, at.y, { width: at.width, height, ellipsis: true, lineBreak: lines > 1 });
  return at.y + height + 1.5;
}

function drawSlip(doc: PdfDoc, slip: Slip, x: number, y: number, width: number, height: number) {
  doc.save();
  doc.lineWidth(0.6).strokeColor('#888888').dash(4, { space: 3 }).rect(x, y, width, height).stroke().undash();
  doc.restore();

  const innerX = x + PAD;
  const innerWidth = width - 2 * PAD;
  const beside = { x: innerX, width: innerWidth - QR_SIZE - 2 * MM };
  let cy = y + PAD;
  cy = block(doc, slip.school, { ...beside, y: cy }, 'regular', 8);
  cy = block(doc, `Класс: ${slip.className || '—'}`, { ...beside, y: cy }, 'regular', 8);
  cy = block(doc, slip.participant || 'Участник', { ...beside, y: cy + 1 }, 'bold', 10.5, 2);
  cy = block(doc, slip.subjectTest, { ...beside, y: cy }, 'regular', 8, 2);
  drawQr(doc, slip.loginUrl, x + width - PAD - QR_SIZE, y + PAD - 2 * MM, QR_SIZE);
  cy = block(
    doc,
    slip.when,
    { x: innerX, width: innerWidth, y: Math.max(cy, y + PAD + QR_SIZE - 2 * MM) },
    'regular',
    8,
    2,
  );

  doc
    .font('regular')
    .fontSize(7.5)
    .fillColor(MUTED)
    .text('Код активации', innerX, cy + 2, { lineBreak: false });
  doc
    .font('mono')
    .fontSize(22)
    .fillColor('#000000')
    .text(slip.activationCode, innerX, cy + 11, { width: innerWidth, lineBreak: false });

  const urlY = y + height - PAD - 4;
  const instructionY = cy + 38;
  doc
    .font('regular')
    .fontSize(6.8)
    .fillColor(INK)
    .text(INSTRUCTION, innerX, instructionY, {
      width: innerWidth,
      lineGap: 0.5,
      height: Math.max(9, urlY - instructionY - 2),
      ellipsis: true,
    });
  doc
    .font('regular')
    .fontSize(5.5)
    .fillColor(MUTED)
    .text(slip.loginUrl, innerX, urlY, { width: innerWidth, lineBreak: false, ellipsis: true });
}

/** The slips as a PDF, eight per A4 page (an explanatory page when there are none). */
export async function codeSlipsPdf(title: string, slips: Slip[]): Promise<Buffer> {
  const doc = createPdf({
    title,
    subject: 'Коды активации участников',
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
  });
  const width = (doc.page.width - 2 * PAGE_MARGIN) / COLUMNS;
  const height = (doc.page.height - 2 * PAGE_MARGIN) / ROWS;
  if (!slips.length) {
    doc
      .font('bold')
      .fontSize(13)
      .fillColor(INK)
      .text(title, PAGE_MARGIN, PAGE_MARGIN + 20, { width: doc.page.width - 2 * PAGE_MARGIN });
    doc
      .font('regular')
      .fontSize(11)
      .text('Нет участников для печати.', { width: doc.page.width - 2 * PAGE_MARGIN });
  }
  slips.forEach((slip, i) => {
    const onPage = i % (COLUMNS * ROWS);
    if (i > 0 && onPage === 0) doc.addPage();
    const col = onPage % COLUMNS;
    const row = Math.floor(onPage / COLUMNS);
    drawSlip(doc, slip, PAGE_MARGIN + col * width, PAGE_MARGIN + row * height, width, height);
  });
  return pdfToBuffer(doc);
}

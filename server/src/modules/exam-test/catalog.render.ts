import { ANSWER_TYPES, contentSchemaFor, type AnswerType, type TaskContent } from '@attesta/contract';
import { sanitizeHtml } from '../../lib/sanitize.js';

/*
 * The printable variant (GET /api/exam/test/variant/{id}/taskTextHtml): one html document with
 * numbered tasks, their options / items / blanks and an answer line, as a paper test booklet shows
 * them. It is rendered only from participant-visible parts (text and `content`), and the body is
 * sanitized as a whole on the way out.
 */

export interface PrintableVariant {
  title: string;
  instructionHtml: string | null;
  tasks: { position: number; answerType: string; html: string; content: unknown; maxScore: number }[];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Letters Russian test booklets use for the left column of matching tasks (no Ё, Й, Ъ...). */
const LETTERS = 'АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯ';
const letter = (i: number) => LETTERS[i] ?? String(i + 1);

const ANSWER_LINE = '<p class="answer">Ответ: ____________________</p>';

const list = (kind: 'ol' | 'ul', cls: string, items: string[]) =>
  `<${kind} class="${cls}">${items.map((h) => `<li>${h}</li>`).join('')}</${kind}>`;

function choice(content: TaskContent<'single_choice'>, multiple: boolean): string {
  const hint = multiple ? '<p class="hint">Выберите все верные ответы.</p>' : '';
  return (
    hint +
    list(
      'ol',
      'options',
      content.options.map((o) => o.html),
    ) +
    ANSWER_LINE
  );
}

function matching(content: TaskContent<'matching'>): string {
  const rows = Math.max(content.left.length, content.right.length);
  const cells = Array.from({ length: rows }, (_, i) => {
    const left = content.left[i];
    const right = content.right[i];
    return (
      `<tr><td>${left ? `${letter(i)}) ${left.html}` : ''}</td>` +
      `<td>${right ? `${i + 1}) ${right.html}` : ''}</td></tr>`
    );
  });
  const header = `<tr>${content.left.map((_, i) => `<th>${letter(i)}</th>`).join('')}</tr>`;
  const blanks = `<tr>${content.left.map(() => '<td>&nbsp;</td>').join('')}</tr>`;
  return (
    `<table class="matching"><tbody>${cells.join('')}</tbody></table>` +
    `<p class="answer">Ответ:</p><table class="answer-grid"><tbody>${header}${blanks}</tbody></table>`
  );
}

function clozeText(html: string, content: TaskContent<'cloze'>): string {
  const blanks = new Map(content.blanks.map((b, i) => [b.id, { blank: b, n: i + 1 }]));
  return html.replace(/\{\{([A-Za-z0-9_-]{1,32})\}\}/g, (whole, id: string) => {
    const hit = blanks.get(id);
    if (!hit) return whole;
    const choices =
      hit.blank.kind === 'choice' ? ` [${hit.blank.options.map((o) => escapeHtml(o.text)).join(' / ')}]` : '';
    return `<span class="blank">(${hit.n}) ________${choices}</span>`;
  });
}

/** What follows the task text: options, items, answer line. Unknown or malformed content shows only the line. */
function body(type: AnswerType, content: unknown): string {
  const parsed = contentSchemaFor(type).safeParse(content);
  if (!parsed.success) return ANSWER_LINE;
  switch (type) {
    case 'single_choice':
      return choice(parsed.data as TaskContent<'single_choice'>, false);
    case 'multiple_choice':
      return choice(parsed.data as TaskContent<'multiple_choice'>, true);
    case 'ordering': {
      const items = (parsed.data as TaskContent<'ordering'>).items.map((it, i) => `${letter(i)}) ${it.html}`);
      return list('ul', 'items', items) + ANSWER_LINE;
    }
    case 'matching':
      return matching(parsed.data as TaskContent<'matching'>);
    case 'number': {
      const unit = (parsed.data as TaskContent<'number'>).unit;
      return unit ? `<p class="answer">Ответ: ____________________ ${escapeHtml(unit)}</p>` : ANSWER_LINE;
    }
    case 'digit_sequence': {
      const length = (parsed.data as TaskContent<'digit_sequence'>).length;
      return length
        ? `<p class="answer">Ответ: ${Array.from({ length }, () => '☐').join(' ')}</p>`
        : ANSWER_LINE;
    }
    case 'cloze':
      return '';
    case 'extended_text':
      return '<p class="answer">Запишите развёрнутый ответ на бланке ответов.</p>';
    case 'file':
      return '<p class="answer">Приложите файл с ответом.</p>';
    default:
      return ANSWER_LINE;
  }
}

const isAnswerType = (type: string): type is AnswerType => (ANSWER_TYPES as readonly string[]).includes(type);

function renderTask(task: PrintableVariant['tasks'][number]): string {
  const type = isAnswerType(task.answerType) ? task.answerType : null;
  let text = task.html;
  if (type === 'cloze') {
    const parsed = contentSchemaFor('cloze').safeParse(task.content);
    if (parsed.success) text = clozeText(sanitizeHtml(text), parsed.data);
  }
  const points = `<span class="points">(${task.maxScore} б.)</span>`;
  return (
    `<section class="task"><h2>Задание ${task.position} ${points}</h2>` +
    `<div class="task-text">${text}</div>${type ? body(type, task.content) : ANSWER_LINE}</section>`
  );
}

const PRINT_CSS = [
  'body{font-family:"Times New Roman",serif;font-size:12pt;line-height:1.4;margin:2cm}',
  'h1{font-size:16pt}h2{font-size:13pt;margin:1.2em 0 .4em}',
  '.task{page-break-inside:avoid;border-top:1px solid #999;padding-top:.4em}',
  '.points{font-weight:normal;font-size:10pt;color:#555}',
  '.blank{white-space:nowrap}',
  'table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .6em;vertical-align:top}',
  '.answer{margin-top:.8em}',
].join('');

/** The whole document. Fixed head (our own style), sanitized body. */
export function renderVariantDocument(variant: PrintableVariant): string {
  const instruction = variant.instructionHtml
    ? `<div class="instruction">${variant.instructionHtml}</div>`
    : '';
  const content =
    `<h1>${escapeHtml(variant.title)}</h1>` + instruction + variant.tasks.map(renderTask).join('');
  return (
    '<!doctype html><html lang="ru"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(variant.title)}</title><style>${PRINT_CSS}</style></head>` +
    `<body>${sanitizeHtml(content)}</body></html>`
  );
}

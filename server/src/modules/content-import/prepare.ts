import { taskDefinitionSchema, type TaskDefinition } from '@attesta/contract';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { findInvalidText } from '../../lib/text-hygiene.js';
import {
  ImportRefusal,
  SOURCE_FORMATS,
  type ItemOutcome,
  type ParseInput,
  type ParsedBatch,
  type ParsedItem,
  type SourceFormat,
} from './parsers/types.js';
import { note, recheckNote, type ImportNote } from './notes.js';
import { checkMedia, type CheckedMedia } from './safety/media.js';
import { taskIssueNote } from './task-issues.js';

/*
 * A parser's batch made ready to store, without the database: every item's task checked with the
 * contract's taskDefinitionSchema (one that fails is refused with the reason), its html sanitised
 * by the server's sanitizer, its media read from the package (or inline), sniffed, sanitised (SVG,
 * html) or left out with a note. Parsers are trusted for nothing: shapes, sizes and identifiers are
 * checked here again, and every note is written again from its code and params (notes.ts), so its
 * text is always the table's.
 */

export const MAX_ITEMS = 5000;
const MAX_HTML = 200_000;
const MAX_ID = 200;
const MAX_TITLE = 500;
const MAX_NOTES = 20;

export interface PreparedMedia {
  /** The reference as written in the html (before sanitising). */
  ref: string;
  media: CheckedMedia;
}

export interface PreparedItem {
  /** The source's identifier (stored as the task's sourceId; two items of a package may share it). */
  sourceId: string;
  /** What the item is within the file, unique there (a package's resource path, else the sourceId). */
  key: string;
  /** The package file it came from, if any. */
  file?: string;
  title: string;
  category: string[];
  outcome: ItemOutcome;
  /** Each with its code (the report's noteCodes) and English text (the report's notes). */
  notes: ImportNote[];
  /** Present unless refused: the checked definition with its sanitised html. */
  task?: TaskDefinition & { html: string; solutionHtml: string | null };
  media: PreparedMedia[];
  /** The source's identifiers of the task's choices by our ids (checked: QTI identifiers only). */
  choiceIds?: Record<string, string>;
  /** Full marks not derived: created, held out of the file's tests until an admin gives them. */
  fullMarksNeeded?: boolean;
}

export interface PreparedTest {
  sourceId: string;
  title: string;
  /** Keys of the items in order (sections flattened in order). */
  itemKeys: string[];
}

export interface PreparedBatch {
  format: SourceFormat;
  items: PreparedItem[];
  tests: PreparedTest[];
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** A one-line text from a parser: a string, without control characters, trimmed, bounded. */
const line = (value: unknown, max: number): string =>
  typeof value === 'string'
    ? value.replace(CONTROL, '').replace(/\s+/g, ' ').trim().slice(0, max)
    : typeof value === 'number'
      ? String(value)
      : '';

const noteText = (value: unknown) => line(value, 500);

/** Every `html` field in a task's content (options, items, matching sides), sanitised in place. */
function sanitizeContentHtml(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sanitizeContentHtml);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        k === 'html' && typeof v === 'string' ? sanitizeHtml(v) : sanitizeContentHtml(v),
      ]),
    );
  }
  return value;
}

/** Every string of a task's html parts (html, solution, content labels), for finding media refs. */
export function htmlParts(task: NonNullable<PreparedItem['task']>): string[] {
  const parts = [task.html, task.solutionHtml ?? ''];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (k === 'html' && typeof v === 'string') parts.push(v);
        else walk(v);
      }
  };
  walk(task.content);
  return parts;
}

/** Checks the task of one item; returns it sanitised, or the reason it is refused. */
function checkTask(item: ParsedItem): { task: NonNullable<PreparedItem['task']> } | { refused: ImportNote } {
  const raw = item.task;
  if (!raw || typeof raw !== 'object') return { refused: note('task_missing') };
  if (typeof raw.html !== 'string' || !raw.html.trim()) return { refused: note('question_text_missing') };
  if (raw.html.length > MAX_HTML) return { refused: note('question_text_too_long', { max: MAX_HTML }) };
  const html = sanitizeHtml(raw.html);
  if (!html.trim()) return { refused: note('question_text_not_allowed') };
  const solutionHtml =
    typeof raw.solutionHtml === 'string' && raw.solutionHtml.trim()
      ? sanitizeHtml(raw.solutionHtml.slice(0, MAX_HTML)) || null
      : null;
  const parsed = taskDefinitionSchema.safeParse({
    answerType: raw.answerType,
    content: sanitizeContentHtml(raw.content),
    reference: raw.reference,
    scoring: raw.scoring,
    maxScore: raw.maxScore,
    criteria: raw.criteria,
  });
  if (!parsed.success) return { refused: taskIssueNote(parsed.error.issues, 'task_invalid') };
  return { task: { ...parsed.data, html, solutionHtml } };
}

const QTI_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.-]{0,199}$/;

/** The source's choice identifiers a parser gave, when they are a map of ids to QTI identifiers. */
function checkedChoiceIds(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(
      (e): e is [string, string] =>
        e[0].length <= 64 && typeof e[1] === 'string' && QTI_IDENTIFIER.test(e[1]),
    )
    .slice(0, 1000);
  // Two of our ids naming one source identifier could not both be written back.
  if (new Set(entries.map((e) => e[1])).size !== entries.length) return undefined;
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** The bytes of a media entry: from the package, or inline. */
function mediaBytes(
  media: ParsedItem['media'][number],
  input: ParseInput,
): { data: Buffer; name: string } | { missing: ImportNote } {
  if (Buffer.isBuffer(media.bytes)) return { data: media.bytes, name: media.name ?? media.ref };
  if (typeof media.path === 'string' && 'package' in input) {
    const pkg = input.package;
    if (pkg.has(media.path)) return { data: pkg.read(media.path), name: media.name ?? media.path };
  }
  return { missing: note('media_missing', { ref: line(media.ref, 200) }) };
}

/** Checks a whole batch. Refuses it (nothing created) only when it is not a batch at all. */
export function prepareBatch(batch: ParsedBatch, input: ParseInput): PreparedBatch {
  if (!batch || typeof batch !== 'object' || !Array.isArray(batch.items) || !Array.isArray(batch.tests))
    throw new ImportRefusal('import_invalid', 'The parser returned no items');
  if (!SOURCE_FORMATS.includes(batch.format))
    throw new ImportRefusal('import_invalid', 'The parser returned an unknown format');
  if (!batch.items.length) throw new ImportRefusal('import_invalid', 'The file has no items to import');
  // A NUL in any text of the file (XML, GIFT, a package's json) would fail in the database.
  const invalid = findInvalidText(batch.items, 'items') ?? findInvalidText(batch.tests, 'tests');
  if (invalid)
    throw new ImportRefusal(
      'invalid_text',
      `The file holds text that is not valid text (a NUL) at ${invalid}`,
    );
  if (batch.items.length > MAX_ITEMS)
    throw new ImportRefusal('import_invalid', `A file may hold at most ${MAX_ITEMS} items`);

  // Keys of the items taken so far: a key met again is a duplicate, unless its first item was refused.
  const seen = new Set<string>();
  const items = batch.items.map((item, i): PreparedItem => {
    const sourceId = line(item?.sourceId, MAX_ID) || `#${i + 1}`;
    const key = line(item?.key, 1000) || sourceId;
    const file = line(item?.file, 1000) || undefined;
    const title = line(item?.title, MAX_TITLE) || sourceId;
    const category = (Array.isArray(item?.category) ? item.category : [])
      .map((c) => line(c, 200).replace(/\//g, '∕'))
      .filter(Boolean)
      .slice(0, 20);
    const notes = (Array.isArray(item?.notes) ? (item.notes as unknown[]) : [])
      .map((n) => recheckNote(n, noteText))
      .filter((n): n is ImportNote => n !== null)
      .slice(0, MAX_NOTES);
    const refused = (reason?: ImportNote): PreparedItem => ({
      sourceId,
      key,
      ...(file ? { file } : {}),
      title,
      category,
      outcome: 'refused',
      notes: reason ? [...notes, reason] : notes,
      media: [],
    });

    if (!item || typeof item !== 'object') return refused(note('not_an_item'));
    if (seen.has(key)) return refused(note('duplicate_id'));
    if (item.outcome === 'refused') return refused(notes.length ? undefined : note('refused_without_reason'));
    const checked = checkTask(item);
    if ('refused' in checked) return refused(checked.refused);
    seen.add(key);

    let outcome: ItemOutcome = item.outcome === 'converted' ? 'converted' : 'imported';
    const media: PreparedMedia[] = [];
    const refs = new Set<string>();
    for (const m of Array.isArray(item.media) ? item.media : []) {
      if (!m || typeof m.ref !== 'string' || !m.ref || refs.has(m.ref)) continue;
      refs.add(m.ref);
      const bytes = mediaBytes(m, input);
      const check =
        'missing' in bytes ? { ok: false as const, note: bytes.missing } : checkMedia(bytes.data, bytes.name);
      if (check.ok) media.push({ ref: m.ref, media: check.media });
      else {
        notes.push(check.note);
        outcome = 'converted';
      }
    }
    const choiceIds = checkedChoiceIds(item.choiceIds);
    return {
      sourceId,
      key,
      ...(file ? { file } : {}),
      title,
      category,
      outcome,
      notes,
      task: checked.task,
      media,
      ...(choiceIds ? { choiceIds } : {}),
      ...(item.fullMarksNeeded === true ? { fullMarksNeeded: true } : {}),
    };
  });

  const tests = batch.tests.slice(0, 100).map((test, i): PreparedTest => ({
    sourceId: line(test?.sourceId, MAX_ID) || `test-${i + 1}`,
    title: line(test?.title, MAX_TITLE) || line(test?.sourceId, MAX_ID) || `Тест ${i + 1}`,
    itemKeys: (Array.isArray(test?.sections) ? test.sections : []).flatMap((s) =>
      (Array.isArray(s?.itemKeys) ? s.itemKeys : []).map((k) => line(k, 1000)),
    ),
  }));
  return { format: batch.format, items, tests };
}

import type { PartAnswerType, QtiResponseDeclaration } from '@attesta/contract';
import {
  attr,
  boolAttr,
  descendants,
  intAttr,
  isElement,
  kid,
  kids,
  textOf,
  type XElement,
  type XNode,
} from './qti-xml.js';
import { note, type ImportNote } from '../notes.js';
import type { ParsedMedia, SafePackage } from './types.js';

/*
 * A QTI item body as task html, and its interactions as the content of our answer types. The html
 * keeps the XHTML as written (p, div, span, img, table, MathML…) minus the interactions; each
 * interaction is replaced by what the answer type needs there: its prompt, or a placeholder
 * ({{id}}) for a gap, span, blank or composite part. Choices get short opaque ids in display order
 * (`IdAllocator`); the declarations and rules are renamed to them (qti-rp.ts renameIdentifiers).
 * Media (img, object) become references to package files, listed for the import job to store.
 */

// ---------------------------------------------------------------- notes

/** What the parser lost (the item becomes `converted`), said in passing, or why it is refused. */
export class Notes {
  readonly lost = new Map<string, ImportNote>();
  readonly info = new Map<string, ImportNote>();
  readonly refusals: ImportNote[] = [];
  drop(n: ImportNote): void {
    this.lost.set(n.text, n);
  }
  say(n: ImportNote): void {
    this.info.set(n.text, n);
  }
  refuse(n: ImportNote): void {
    if (!this.refusals.some((r) => r.text === n.text)) this.refusals.push(n);
  }
  get all(): ImportNote[] {
    return [...this.refusals, ...this.lost.values(), ...this.info.values()];
  }
}

// ---------------------------------------------------------------- ids

/**
 * Short opaque ids in display order (`c1`, `c2`…, one prefix per kind), one per QTI identifier of
 * the item. A new id never equals another literal of the item, so renaming stays one-to-one.
 */
export class IdAllocator {
  private readonly map = new Map<string, string>();
  private readonly taken = new Set<string>();
  private readonly counters = new Map<string, number>();
  constructor(private readonly literals: ReadonlySet<string>) {}

  take(qtiId: string, prefix: string): string {
    const hit = this.map.get(qtiId);
    if (hit) return hit;
    let n = this.counters.get(prefix) ?? 0;
    let id: string;
    do {
      n++;
      id = `${prefix}${n}`;
    } while (this.taken.has(id) || (this.literals.has(id) && id !== qtiId));
    this.counters.set(prefix, n);
    this.taken.add(id);
    this.map.set(qtiId, id);
    return id;
  }

  /** The id a QTI identifier became, or the identifier itself (a literal that names no choice). */
  rename = (qtiId: string): string => this.map.get(qtiId) ?? qtiId;

  /** QTI identifier → task id. */
  get entries(): ReadonlyMap<string, string> {
    return this.map;
  }
}

// ---------------------------------------------------------------- media

/** A reference written in the item, resolved in the package and listed as media. */
export class MediaCollector {
  readonly list: ParsedMedia[] = [];
  constructor(
    private readonly pkg: SafePackage | undefined,
    private readonly from: string,
    private readonly notes: Notes,
  ) {}

  /** The reference to write in the html (the package path), or null when it cannot be used. */
  ref(raw: string | undefined): string | null {
    const written = (raw ?? '').trim();
    if (!written) return null;
    if (/^[a-z][a-z0-9+.-]*:/i.test(written) || written.startsWith('//')) return written; // a URL: the sanitiser decides
    let path: string | null = written;
    if (this.pkg) {
      path = this.pkg.resolve(this.from, written);
      if (!path) {
        this.notes.drop(note('qti_media_outside_package'));
        return null;
      }
    }
    if (!this.list.some((m) => m.ref === path)) this.list.push({ ref: path, path });
    return path;
  }

  /** The bytes of a listed file, when the package has it. */
  bytes(path: string): Buffer | null {
    return this.pkg?.has(path) ? this.pkg.read(path) : null;
  }
}

/** Width and height of a PNG, GIF, JPEG or SVG image, or null. */
export function imageSize(data: Buffer): { width: number; height: number } | null {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47)
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  if (data.length >= 10 && data.subarray(0, 3).toString('latin1') === 'GIF')
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    let i = 2;
    while (i + 9 < data.length) {
      if (data[i] !== 0xff) return null;
      const marker = data[i + 1]!;
      const length = data.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: data.readUInt16BE(i + 5), width: data.readUInt16BE(i + 7) };
      i += 2 + length;
    }
    return null;
  }
  const head = data.subarray(0, 2048).toString('utf8');
  const svg = /<svg\b[^>]*>/i.exec(head)?.[0];
  if (svg) {
    const w = /\swidth="([\d.]+)(px)?"/.exec(svg)?.[1];
    const h = /\sheight="([\d.]+)(px)?"/.exec(svg)?.[1];
    if (w && h) return { width: Number(w), height: Number(h) };
    const box = /\sviewBox="[\d.-]+[\s,]+[\d.-]+[\s,]+([\d.]+)[\s,]+([\d.]+)"/.exec(svg);
    if (box) return { width: Number(box[1]), height: Number(box[2]) };
  }
  return null;
}

// ---------------------------------------------------------------- html

const VOID = new Set(['br', 'hr', 'img', 'col', 'area', 'wbr', 'source', 'track', 'param', 'embed', 'input']);

export const escText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const escAttr = (s: string) => escText(s).replace(/"/g, '&quot;');

/** Replacement html for an element (an interaction, a gap…); undefined renders it as html. */
export type Hook = (el: XElement) => string | undefined;

const IMAGE_FILE = /\.(png|jpe?g|gif|svg|webp|bmp)(?:[?#].*)?$/i;

/** Turns body XML into html, dropping what the task model has no place for (with a note). */
export class BodyRenderer {
  /** Html for scorers (rubric blocks not for candidates): the task's solution html. */
  readonly solution: string[] = [];
  constructor(
    readonly media: MediaCollector,
    readonly notes: Notes,
  ) {}

  nodes(nodes: readonly XNode[], hook?: Hook): string {
    return nodes.map((n) => (n.kind === 'text' ? escText(n.text) : this.element(n, hook))).join('');
  }

  children(el: XElement, hook?: Hook): string {
    return this.nodes(el.children, hook);
  }

  element(el: XElement, hook?: Hook): string {
    const replaced = hook?.(el);
    if (replaced !== undefined) return replaced;
    switch (el.name) {
      case 'feedbackInline':
      case 'feedbackBlock':
      case 'modalFeedback':
        this.notes.drop(note('qti_feedback_dropped'));
        return '';
      case 'rubricBlock': {
        const views = (attr(el, 'view') ?? 'candidate').split(/\s+/);
        const html = this.children(el, hook);
        if (views.includes('candidate')) return `<div class="qti-rubric">${html}</div>`;
        if (html.trim()) {
          this.solution.push(html);
          this.notes.say(note('qti_rubric_as_solution', { views: views.join(', ') }));
        }
        return '';
      }
      case 'contentBody':
        return this.children(el, hook);
      case 'printedVariable':
        this.notes.drop(note('qti_printed_variables_dropped'));
        return '';
      case 'templateBlock':
      case 'templateInline':
        this.notes.drop(note('qti_template_blocks_dropped'));
        return '';
      case 'include':
        this.notes.drop(note('qti_xinclude_dropped'));
        return '';
      case 'infoControl':
        this.notes.drop(note('qti_info_controls_dropped'));
        return '';
      case 'stylesheet':
      case 'catalogInfo':
      case 'companionMaterialsInfo':
        return '';
      case 'prompt':
        return this.prompt(el, hook);
      case 'object':
        return this.object(el);
      case 'img': {
        const src = this.media.ref(attr(el, 'src'));
        if (!src) return escText(attr(el, 'alt') ?? '');
        return `<img${this.attrs({ ...el.attrs, src })} />`;
      }
      case 'audio':
      case 'video': {
        const source = attr(el, 'src') ?? kids(el, 'source').map((s) => attr(s, 'src'))[0];
        const src = this.media.ref(source);
        this.notes.drop(note('qti_audio_video_links'));
        return src ? `<a href="${escAttr(src)}">${escText(src.split('/').pop() ?? src)}</a>` : '';
      }
      case 'a': {
        const href = attr(el, 'href');
        const target = href && !href.startsWith('#') ? this.media.ref(href) : null;
        return `<a${this.attrs({ ...el.attrs, ...(target ? { href: target } : {}) })}>${this.children(el, hook)}</a>`;
      }
      default:
        return VOID.has(el.name)
          ? `<${el.name}${this.attrs(el.attrs)} />`
          : `<${el.name}${this.attrs(el.attrs)}>${this.children(el, hook)}</${el.name}>`;
    }
  }

  prompt(el: XElement | undefined, hook?: Hook): string {
    if (!el) return '';
    const html = this.children(el, hook);
    return html.trim() ? `<div class="qti-prompt">${html}</div>` : '';
  }

  private attrs(attrs: Record<string, string>): string {
    return Object.entries(attrs)
      .map(([k, v]) => ` ${k}="${escAttr(v)}"`)
      .join('');
  }

  /** An object: an image becomes an img, anything else a link (audio, video, documents). */
  object(el: XElement): string {
    const data = attr(el, 'data') ?? '';
    const type = attr(el, 'type') ?? '';
    const fallback = textOf(el).replace(/\s+/g, ' ').trim();
    const src = this.media.ref(data);
    if (!src) return fallback ? `<span>${escText(fallback)}</span>` : '';
    if (/^image\//i.test(type) || IMAGE_FILE.test(data)) {
      const size = ['width', 'height']
        .filter((k) => /^\d+(\.\d+)?$/.test(attr(el, k) ?? ''))
        .map((k) => ` ${k}="${attr(el, k)}"`)
        .join('');
      return `<img src="${escAttr(src)}" alt="${escAttr(fallback.slice(0, 500))}"${size} />`;
    }
    this.notes.drop(note('qti_objects_links'));
    return `<a href="${escAttr(src)}">${escText(fallback || src.split('/').pop() || src)}</a>`;
  }
}

// ---------------------------------------------------------------- interactions

/** Interactions the task model can hold, by element name. */
export const INTERACTIONS = {
  choiceInteraction: 'choice',
  orderInteraction: 'order',
  associateInteraction: 'associate',
  matchInteraction: 'match',
  gapMatchInteraction: 'gapMatch',
  inlineChoiceInteraction: 'inlineChoice',
  textEntryInteraction: 'textEntry',
  extendedTextInteraction: 'extendedText',
  hottextInteraction: 'hottext',
  hotspotInteraction: 'hotspot',
  selectPointInteraction: 'selectPoint',
  uploadInteraction: 'upload',
  sliderInteraction: 'slider',
  graphicOrderInteraction: 'graphicOrder',
} as const;
export type InteractionKind = (typeof INTERACTIONS)[keyof typeof INTERACTIONS];

/** Interactions written inside text (they become cloze blanks when an item has nothing else). */
export const INLINE_KINDS: readonly InteractionKind[] = ['textEntry', 'inlineChoice'];

export const isInteraction = (name: string): boolean =>
  name in INTERACTIONS || /Interaction$/.test(name) || name === 'positionObjectStage';

export const kindOf = (name: string): InteractionKind | null =>
  (INTERACTIONS as Record<string, InteractionKind>)[name] ?? null;

/** How an interaction is placed in the task html. */
export type Mode = 'single' | 'part' | 'cloze';

export interface BuildContext {
  r: BodyRenderer;
  ids: IdAllocator;
  notes: Notes;
  decl: QtiResponseDeclaration | undefined;
  mode: Mode;
  /** The placeholder id (composite part or cloze blank). */
  slotId: string;
}

export type Built =
  | { kind: 'task'; answerType: PartAnswerType; content: Record<string, unknown>; html: string }
  | { kind: 'blank'; blank: Record<string, unknown>; html: string };

const FULL_MIME = /^[a-z]+\/([a-z0-9.+-]+|\*)$/i;
const ANY_FILE = ['application/*', 'image/*', 'text/*', 'audio/*', 'video/*'];

/** Shuffle as the task model has it: all or nothing; fixed choices turn it off. */
function shuffleOf(el: XElement, choices: readonly XElement[], notes: Notes): boolean {
  if (!boolAttr(el, 'shuffle', false)) return false;
  if (choices.some((c) => boolAttr(c, 'fixed', false))) {
    notes.drop(note('shuffle_fixed_choices'));
    return false;
  }
  return true;
}

const placeholder = (id: string) => `{{${id}}}`;

/** A label's html on one line (indentation of the XML is not part of it; <pre> keeps its own). */
export const compact = (html: string) =>
  /<pre\b/i.test(html) ? html.trim() : html.replace(/\s+/g, ' ').trim();

/** Html without the empty paragraphs, divs and spans that dropped feedback leaves behind. */
export function tidy(html: string): string {
  let out = html;
  for (let i = 0; i < 5; i++) {
    const next = out.replace(/<(p|div|span)>\s*<\/\1>/g, '');
    if (next === out) break;
    out = next;
  }
  return out.trim();
}
const clampLength = (n: number | undefined) => (n === undefined ? undefined : Math.max(1, Math.min(100, n)));

/** Html of a block interaction in its place: the prompt, and (composite) the part's placeholder. */
function around(ctx: BuildContext, el: XElement, inner = ''): string {
  const prompt = ctx.r.prompt(kid(el, 'prompt'));
  return ctx.mode === 'part' ? `${prompt}${inner}${placeholder(ctx.slotId)}` : `${prompt}${inner}`;
}

/** A task of this answer type with this content; its html the prompt, then `inner`. */
function task(
  ctx: BuildContext,
  el: XElement,
  answerType: PartAnswerType,
  content: Record<string, unknown>,
  inner = '',
): Built {
  return { kind: 'task', answerType, content, html: around(ctx, el, inner) };
}

/** Labelled choices: each child element of these names as { id, html } in display order. */
function labelled(ctx: BuildContext, list: readonly XElement[], prefix: string) {
  return list.map((c) => ({
    id: ctx.ids.take(attr(c, 'identifier') ?? '', prefix),
    html: compact(ctx.r.children(c)),
  }));
}

/** Max/min choices as the task model has them (0 — no limit — is left out). */
function limits(el: XElement): { minChoices?: number; maxChoices?: number } {
  const max = intAttr(el, 'maxChoices');
  const min = intAttr(el, 'minChoices');
  return { ...(min ? { minChoices: min } : {}), ...(max ? { maxChoices: max } : {}) };
}

function choice(ctx: BuildContext, el: XElement): Built {
  const choices = kids(el, 'simpleChoice');
  const options = labelled(ctx, choices, 'c');
  const shuffle = shuffleOf(el, choices, ctx.notes);
  if (ctx.decl?.cardinality === 'single') return task(ctx, el, 'single_choice', { options, shuffle });
  return task(ctx, el, 'multiple_choice', { options, shuffle, ...limits(el) });
}

function order(ctx: BuildContext, el: XElement): Built {
  const choices = kids(el, 'simpleChoice');
  const max = intAttr(el, 'maxChoices');
  if (max && max < choices.length) ctx.notes.refuse(note('qti_order_subset_unsupported'));
  const items = labelled(ctx, choices, 'i');
  return task(ctx, el, 'ordering', { items, shuffle: shuffleOf(el, choices, ctx.notes) });
}

function match(ctx: BuildContext, el: XElement): Built {
  const sets = kids(el, 'simpleMatchSet');
  if (sets.length !== 2) {
    ctx.notes.refuse(note('qti_match_sets'));
    return { kind: 'task', answerType: 'matching', content: {}, html: '' };
  }
  const [sources, targets] = sets.map((s) => kids(s, 'simpleAssociableChoice')) as [XElement[], XElement[]];
  const several = sources.filter((s) => intAttr(s, 'matchMax', 1) !== 1);
  if (several.length) {
    const ids = new Set(several.map((s) => attr(s, 'identifier')));
    const counts = new Map<string, number>();
    for (const v of ctx.decl?.correct ?? []) {
      const source = String(v).trim().split(/\s+/)[0]!;
      counts.set(source, (counts.get(source) ?? 0) + 1);
    }
    if ([...counts].some(([id, n]) => ids.has(id) && n > 1))
      ctx.notes.refuse(note('qti_match_several_targets'));
    else ctx.notes.drop(note('qti_match_max_dropped'));
  }
  const max = intAttr(el, 'maxAssociations');
  if (max && max < sources.length) ctx.notes.drop(note('qti_max_associations_dropped', { max }));
  const all = [...sources, ...targets];
  return task(ctx, el, 'matching', {
    left: labelled(ctx, sources, 'l'),
    right: labelled(ctx, targets, 'r'),
    shuffle: shuffleOf(el, all, ctx.notes),
  });
}

const matchMax = (el: XElement) => {
  const n = intAttr(el, 'matchMax', 1)!;
  return n < 0 || n > 50 ? 0 : n;
};

function associate(ctx: BuildContext, el: XElement): Built {
  const choices = kids(el, 'simpleAssociableChoice');
  const items = choices.map((c) => ({
    id: ctx.ids.take(attr(c, 'identifier') ?? '', 'a'),
    html: compact(ctx.r.children(c)),
    matchMax: matchMax(c),
  }));
  const max = intAttr(el, 'maxAssociations', 1)!;
  const min = intAttr(el, 'minAssociations');
  return task(ctx, el, 'associate', {
    items,
    maxAssociations: Math.max(0, Math.min(100, max)),
    ...(min ? { minAssociations: min } : {}),
    shuffle: shuffleOf(el, choices, ctx.notes),
  });
}

function gapMatch(ctx: BuildContext, el: XElement): Built {
  const wordEls = kids(el, 'gapText', 'gapImg');
  const words = wordEls.map((w) => ({
    id: ctx.ids.take(attr(w, 'identifier') ?? '', 'w'),
    html: compact(w.name === 'gapImg' ? ctx.r.nodes(kids(w, 'object', 'img')) : ctx.r.children(w)),
    matchMax: matchMax(w),
  }));
  const gaps: { id: string }[] = [];
  const text = el.children.filter((c) => !isElement(c) || !['gapText', 'gapImg', 'prompt'].includes(c.name));
  const inner = ctx.r.nodes(text, (e) => {
    if (e.name !== 'gap') return undefined;
    const id = ctx.ids.take(attr(e, 'identifier') ?? '', 'g');
    gaps.push({ id });
    return ctx.mode === 'part' ? `<span class="qti-gap">(${gaps.length})</span>` : placeholder(id);
  });
  if (ctx.mode === 'part') ctx.notes.drop(note('qti_gap_match_part_marks'));
  return task(ctx, el, 'gap_match', { words, gaps, shuffle: shuffleOf(el, wordEls, ctx.notes) }, inner);
}

function hottext(ctx: BuildContext, el: XElement): Built {
  const choices: { id: string; html: string }[] = [];
  const text = el.children.filter((c) => !isElement(c) || c.name !== 'prompt');
  const inner = ctx.r.nodes(text, (e) => {
    if (e.name !== 'hottext') return undefined;
    const id = ctx.ids.take(attr(e, 'identifier') ?? '', 'h');
    const html = compact(ctx.r.children(e));
    choices.push({ id, html });
    return ctx.mode === 'part' ? `<span class="qti-hottext">${html}</span>` : placeholder(id);
  });
  if (ctx.mode === 'part') ctx.notes.drop(note('qti_hottext_part_choices'));
  return task(ctx, el, 'hottext', { choices, ...limits(el) }, inner);
}

/** The image of a graphic interaction: its object (or img), resolved, with its size. */
function graphicImage(ctx: BuildContext, el: XElement, areas: { coords: number[] }[]) {
  const object = kid(el, 'object') ?? kid(el, 'img') ?? descendants(el, ['object', 'img'])[0];
  if (!object) {
    ctx.notes.refuse(note('qti_graphic_no_image'));
    return null;
  }
  const raw = object.name === 'img' ? attr(object, 'src') : attr(object, 'data');
  const src = ctx.r.media.ref(raw);
  if (!src) {
    ctx.notes.refuse(note('qti_graphic_image_missing'));
    return null;
  }
  let width = Number(attr(object, 'width'));
  let height = Number(attr(object, 'height'));
  if (!(width > 0 && height > 0)) {
    const bytes = ctx.r.media.bytes(src);
    const size = bytes ? imageSize(bytes) : null;
    if (size) ({ width, height } = size);
    else {
      const xs = areas.flatMap((a) => a.coords.filter((_, i) => i % 2 === 0));
      const ys = areas.flatMap((a) => a.coords.filter((_, i) => i % 2 === 1));
      const r = Math.max(0, ...areas.map((a) => (a.coords.length === 3 ? a.coords[2]! : 0)));
      width = Math.max(1, ...xs) + r;
      height = Math.max(1, ...ys) + r;
      ctx.notes.drop(note('qti_image_size_from_areas'));
    }
  }
  const alt = (object.name === 'img' ? attr(object, 'alt') : textOf(object)) ?? '';
  return {
    src,
    width: Math.min(10_000, width),
    height: Math.min(10_000, height),
    ...(alt.trim() ? { alt: alt.replace(/\s+/g, ' ').trim().slice(0, 500) } : {}),
  };
}

function coordsOf(el: XElement): number[] | null {
  const raw = (attr(el, 'coords') ?? '').trim();
  if (!raw) return [];
  const xs = raw.split(/[\s,]+/).map(Number);
  return xs.every((x) => Number.isFinite(x)) ? xs : null;
}

/** A QTI area as one of ours ('default', the whole image, becomes a rect). */
function area(id: string, shape: string, coords: number[], size: { width: number; height: number } | null) {
  if (shape === 'default')
    return { id, shape: 'rect', coords: [0, 0, size?.width ?? 10_000, size?.height ?? 10_000] };
  return { id, shape, coords };
}

function hotspot(ctx: BuildContext, el: XElement): Built {
  const choices = kids(el, 'hotspotChoice');
  const parsed = choices.map((c) => ({ el: c, shape: attr(c, 'shape') ?? 'rect', coords: coordsOf(c) }));
  if (parsed.some((p) => p.coords === null)) ctx.notes.refuse(note('qti_hotspot_coords'));
  const image = graphicImage(
    ctx,
    el,
    parsed.map((p) => ({ coords: p.coords ?? [] })),
  );
  const areas = parsed.map((p) =>
    area(ctx.ids.take(attr(p.el, 'identifier') ?? '', 's'), p.shape, p.coords ?? [], image),
  );
  return task(ctx, el, 'hotspot', { image, areas, select: 'areas', ...limits(el) });
}

/** selectPoint: the areas are those the rules score (areaMapping, else `inside` expressions). */
function selectPoint(
  ctx: BuildContext,
  el: XElement,
  insideAreas: { shape: string; coords: number[] }[],
): Built {
  const mapped =
    ctx.decl?.areaMapping?.entries.map((e) => ({ shape: e.shape as string, coords: e.coords })) ?? [];
  const shapes = mapped.length ? mapped : insideAreas;
  if (!shapes.length) ctx.notes.refuse(note('qti_select_point_areas'));
  const image = graphicImage(ctx, el, shapes);
  const areas = shapes.map((s, i) => area(`z${i + 1}`, s.shape, s.coords, image));
  return task(ctx, el, 'hotspot', { image, areas, select: 'points', ...limits(el) });
}

const isNumeric = (decl: QtiResponseDeclaration | undefined) =>
  decl?.baseType === 'float' || decl?.baseType === 'integer';

function textEntry(ctx: BuildContext, el: XElement): Built {
  if (attr(el, 'patternMask')) ctx.notes.drop(note('qti_text_entry_pattern_dropped'));
  const width = clampLength(intAttr(el, 'expectedLength'));
  if (ctx.mode === 'cloze')
    return {
      kind: 'blank',
      blank: { id: ctx.slotId, kind: isNumeric(ctx.decl) ? 'number' : 'text', ...(width ? { width } : {}) },
      html: placeholder(ctx.slotId),
    };
  const html = ctx.mode === 'part' ? placeholder(ctx.slotId) : '';
  return isNumeric(ctx.decl)
    ? { kind: 'task', answerType: 'number', content: {}, html }
    : { kind: 'task', answerType: 'short_text', content: { maxLength: 100 }, html };
}

function inlineChoice(ctx: BuildContext, el: XElement): Built {
  const choices = kids(el, 'inlineChoice');
  if (boolAttr(el, 'shuffle', false)) {
    if (ctx.mode === 'cloze') ctx.notes.drop(note('qti_inline_choice_no_shuffle'));
  }
  // An option may hold markup (a MathML formula, sub/sup): it is kept as html beside its plain text.
  const marked = (c: XElement) => c.children.some((n) => n.kind === 'element');
  if (ctx.mode === 'cloze') {
    const options = choices.map((c) => ({
      id: ctx.ids.take(attr(c, 'identifier') ?? '', 'o'),
      text: textOf(c).replace(/\s+/g, ' ').trim().slice(0, 200),
      ...(marked(c) ? { html: compact(ctx.r.children(c)) } : {}),
    }));
    return {
      kind: 'blank',
      blank: { id: ctx.slotId, kind: 'choice', options },
      html: placeholder(ctx.slotId),
    };
  }
  const options = choices.map((c) => ({
    id: ctx.ids.take(attr(c, 'identifier') ?? '', 'o'),
    html: marked(c) ? compact(ctx.r.children(c)) : escText(textOf(c).replace(/\s+/g, ' ').trim()),
  }));
  return {
    kind: 'task',
    answerType: 'single_choice',
    content: { options, shuffle: shuffleOf(el, choices, ctx.notes) },
    html: ctx.mode === 'part' ? placeholder(ctx.slotId) : '',
  };
}

function extendedText(ctx: BuildContext, el: XElement): Built {
  if (ctx.decl && ctx.decl.cardinality !== 'single') ctx.notes.drop(note('qti_extended_text_multiple'));
  if (attr(el, 'patternMask')) ctx.notes.drop(note('qti_extended_text_pattern_dropped'));
  return task(ctx, el, 'extended_text', { maxLength: 10_000 });
}

function upload(ctx: BuildContext, el: XElement): Built {
  const type = (attr(el, 'type') ?? '').trim();
  const accept = type && FULL_MIME.test(type) ? [type.toLowerCase()] : ANY_FILE;
  return task(ctx, el, 'file', { accept, maxFiles: 1 });
}

/** graphicOrder: the areas become items to order, by their labels; the picture goes into the html. */
function graphicOrder(ctx: BuildContext, el: XElement): Built {
  const choices = kids(el, 'hotspotChoice');
  const image = graphicImage(
    ctx,
    el,
    choices.map((c) => ({ coords: coordsOf(c) ?? [] })),
  );
  const items = choices.map((c, i) => ({
    id: ctx.ids.take(attr(c, 'identifier') ?? '', 'i'),
    html: escText((attr(c, 'hotspotLabel') ?? '').trim() || String(i + 1)),
  }));
  ctx.notes.drop(note('qti_graphic_order_labels'));
  const picture = image
    ? `<p><img src="${escAttr(image.src)}" alt="${escAttr(image.alt ?? '')}" width="${image.width}" height="${image.height}" /></p>`
    : '';
  return task(ctx, el, 'ordering', { items, shuffle: shuffleOf(el, choices, ctx.notes) }, picture);
}

function slider(ctx: BuildContext, el: XElement): Built {
  const lower = attr(el, 'lowerBound');
  const upper = attr(el, 'upperBound');
  ctx.notes.drop(note('qti_slider_as_number'));
  const hint =
    lower !== undefined && upper !== undefined ? `<p>(${escText(lower)} … ${escText(upper)})</p>` : '';
  return task(ctx, el, 'number', {}, hint);
}

/** One interaction as an answer type's content (or a cloze blank) and the html in its place. */
export function buildInteraction(
  ctx: BuildContext,
  el: XElement,
  kind: InteractionKind,
  insideAreas: { shape: string; coords: number[] }[],
): Built {
  switch (kind) {
    case 'choice':
      return choice(ctx, el);
    case 'order':
      return order(ctx, el);
    case 'match':
      return match(ctx, el);
    case 'associate':
      return associate(ctx, el);
    case 'gapMatch':
      return gapMatch(ctx, el);
    case 'hottext':
      return hottext(ctx, el);
    case 'hotspot':
      return hotspot(ctx, el);
    case 'selectPoint':
      return selectPoint(ctx, el, insideAreas);
    case 'textEntry':
      return textEntry(ctx, el);
    case 'inlineChoice':
      return inlineChoice(ctx, el);
    case 'extendedText':
      return extendedText(ctx, el);
    case 'upload':
      return upload(ctx, el);
    case 'slider':
      return slider(ctx, el);
    case 'graphicOrder':
      return graphicOrder(ctx, el);
  }
}

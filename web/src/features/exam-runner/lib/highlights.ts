/**
 * The runner's highlighter (docs/accommodations.md): a reader marks text of a task's stem and
 * removes the marks again. Marks are kept per task in this browser's session only (never sent).
 * A mark is a span of character offsets into the stem's text, so it survives the stem being
 * rendered again; `paint` draws the spans as <mark> elements.
 */

export interface Span {
  start: number;
  end: number;
}

const MARK_ATTR = 'data-highlight';
const KEY_PREFIX = 'attesta.highlights.';

/** The span a selection covers inside `root`, or null when it is empty or not (wholly) in it. */
export function spanOf(root: Element, range: Range): Span | null {
  if (range.collapsed || !root.contains(range.startContainer) || !root.contains(range.endContainer))
    return null;
  const before = document.createRange();
  before.selectNodeContents(root);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  const end = start + range.toString().length;
  return end > start ? { start, end } : null;
}

/** The spans with one more, overlapping or touching ones joined, in order. */
export function addSpan(spans: Span[], span: Span): Span[] {
  const all = [...spans, span].sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of all) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** The spans without the one at index `i`. */
export const removeSpan = (spans: Span[], i: number): Span[] => spans.filter((_, j) => j !== i);

function textNodesOf(root: Element): Text[] {
  const nodes: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  return nodes;
}

/** Removes the marks drawn in `root`, leaving its text as it was. */
export function unpaint(root: Element): void {
  for (const mark of [...root.querySelectorAll(`mark[${MARK_ATTR}]`)]) mark.replaceWith(...mark.childNodes);
  root.normalize();
}

/** Draws the spans in `root` as <mark data-highlight="i"> around the text they cover. */
export function paint(root: Element, spans: Span[]): void {
  unpaint(root);
  spans.forEach((span, i) => {
    let offset = 0;
    for (const node of textNodesOf(root)) {
      const from = offset;
      const to = offset + node.data.length;
      offset = to;
      if (to <= span.start || from >= span.end || node.parentElement?.closest(`mark[${MARK_ATTR}]`)) continue;
      let target = node;
      if (span.start > from) target = target.splitText(span.start - from);
      if (span.end < to) target.splitText(span.end - Math.max(from, span.start));
      const mark = document.createElement('mark');
      mark.setAttribute(MARK_ATTR, String(i));
      mark.className = 'runner-highlight';
      target.replaceWith(mark);
      mark.append(target);
    }
  });
}

/** The index of the mark an element is in, or null. */
export function markIndexOf(el: Element | null): number | null {
  const mark = el?.closest(`mark[${MARK_ATTR}]`);
  return mark ? Number(mark.getAttribute(MARK_ATTR)) : null;
}

export function loadSpans(key: string): Span[] {
  try {
    const raw = sessionStorage.getItem(KEY_PREFIX + key);
    return raw ? (JSON.parse(raw) as Span[]) : [];
  } catch {
    return [];
  }
}

export function saveSpans(key: string, spans: Span[]): void {
  try {
    if (spans.length) sessionStorage.setItem(KEY_PREFIX + key, JSON.stringify(spans));
    else sessionStorage.removeItem(KEY_PREFIX + key);
  } catch {
    // A full or closed storage only loses the marks.
  }
}

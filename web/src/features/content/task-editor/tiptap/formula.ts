/**
 * Formulas in task html: TeX between `\( \)` (inline) or `\[ \]` (display), which RichHtml renders
 * with KaTeX, and MathML `<math>` elements, which browsers render themselves. In the editor each
 * formula is one node; these functions turn stored html into the editor's and back.
 */
import katex from 'katex';
import { sanitizeHtml, sanitizeHtmlOrEmpty } from '../../../../lib/sanitize';

export type FormulaKind = 'tex' | 'mathml';
export interface FormulaAttrs {
  kind: FormulaKind;
  source: string;
  display: boolean;
}

const TEX = /\$\$([\s\S]+?)\$\$|\\\(([\s\S]+?)\\\)|\\\[([\s\S]+?)\\\]/g;
const SKIP = new Set(['CODE', 'PRE', 'MATH']);

/** The formula as html: KaTeX's rendering of TeX, or the sanitised MathML. */
export function renderFormula({ kind, source, display }: FormulaAttrs): string {
  if (kind === 'mathml') return sanitizeHtmlOrEmpty(source);
  return katex.renderToString(source, {
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
  });
}

/** Whether TeX parses (KaTeX's own error text is not shown; the preview marks it). */
export function texProblem(source: string): boolean {
  try {
    katex.renderToString(source, { throwOnError: true, strict: 'ignore', trust: false });
    return false;
  } catch {
    return true;
  }
}

/** MathML as typed: the `<math>` element (added when only its inside was typed), or null if none survives the sanitizer. */
export function normaliseMathml(source: string): string | null {
  const trimmed = source.trim();
  if (!trimmed) return null;
  const wrapped = /^<math[\s>]/i.test(trimmed) ? trimmed : `<math>${trimmed}</math>`;
  const template = document.createElement('template');
  template.innerHTML = sanitizeHtmlOrEmpty(wrapped);
  const math = template.content.querySelector('math');
  return math ? math.outerHTML : null;
}

function formulaSpan(attrs: FormulaAttrs): HTMLElement {
  const span = document.createElement('span');
  span.setAttribute('data-formula', attrs.kind);
  span.setAttribute('data-source', attrs.source);
  span.setAttribute('data-display', String(attrs.display));
  return span;
}

function textNodes(root: Node): Text[] {
  const nodes: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let skip = false;
    for (let p = node.parentElement; p; p = p.parentElement)
      if (SKIP.has(p.tagName.toUpperCase())) skip = true;
    if (!skip) nodes.push(node as Text);
  }
  return nodes;
}

/** Stored html → the editor's: sanitised, each formula one `span[data-formula]`. */
export function toEditorHtml(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = sanitizeHtmlOrEmpty(html);
  template.content.querySelectorAll('math').forEach((math) => {
    if (math.parentElement?.closest('math')) return;
    math.replaceWith(
      formulaSpan({
        kind: 'mathml',
        source: math.outerHTML,
        display: math.getAttribute('display') === 'block',
      }),
    );
  });
  for (const node of textNodes(template.content)) {
    const text = node.data;
    TEX.lastIndex = 0;
    const parts: Node[] = [];
    let last = 0;
    for (let m = TEX.exec(text); m; m = TEX.exec(text)) {
      if (m.index > last) parts.push(document.createTextNode(text.slice(last, m.index)));
      const display = m[1] !== undefined || m[3] !== undefined;
      parts.push(formulaSpan({ kind: 'tex', source: (m[1] ?? m[2] ?? m[3] ?? '').trim(), display }));
      last = m.index + m[0].length;
    }
    if (!parts.length) continue;
    if (last < text.length) parts.push(document.createTextNode(text.slice(last)));
    node.replaceWith(...parts);
  }
  return template.innerHTML;
}

/** The editor's html → stored html: formulas back to TeX text or MathML, everything sanitised. */
export function fromEditorHtml(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  template.content.querySelectorAll('span[data-formula]').forEach((span) => {
    const source = span.getAttribute('data-source') ?? '';
    if (span.getAttribute('data-formula') === 'mathml') {
      const inner = document.createElement('template');
      inner.innerHTML = sanitizeHtmlOrEmpty(source);
      span.replaceWith(inner.content);
    } else {
      const display = span.getAttribute('data-display') === 'true';
      span.replaceWith(document.createTextNode(display ? `\\[${source}\\]` : `\\(${source}\\)`));
    }
  });
  const out = sanitizeHtml(template.innerHTML);
  // An editor left with one empty paragraph holds no text.
  return out === '<p></p>' ? '' : out;
}

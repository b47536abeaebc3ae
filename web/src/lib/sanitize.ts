/**
 * Sanitizer for text shown to users (spec §5): exam content, help texts, notifications.
 *
 * Decisions:
 * - Explicit tag and attribute allowlists suited to exam content, MathML included (formulas).
 * - `style` is NOT allowed: inline CSS can position content over the exam UI (fake "finish"
 *   buttons, covered answer fields) and load remote resources; presentation comes from our CSS.
 * - `class` IS allowed, because imported content (QTI, Moodle) marks up its layout with classes,
 *   but tokens that would reach into the app itself (`mantine-*`, `mf-*`, `is-*`) are dropped.
 * - `id` and `name` are not allowed (DOM clobbering of globals and of our own elements).
 * - Links keep only safe protocols, always open in a new tab and get `rel="noopener noreferrer"`,
 *   so a participant never navigates away from a running test and the opened page cannot script ours.
 * - The clean-up is re-run until its output equals its input (mutation XSS relies on the browser
 *   re-parsing sanitized markup into something else); at most 5 passes, then the text is rejected.
 */
import DOMPurify, { type Config } from 'dompurify';

export const MAX_SANITIZE_PASSES = 5;

// prettier-ignore
export const ALLOWED_TAGS = [
  'p', 'br', 'b', 'i', 'em', 'strong', 'u', 's', 'sub', 'sup', 'span', 'div', 'ul', 'ol', 'li',
  'table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'img', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'hr', 'figure', 'figcaption',
  'ruby', 'rb', 'rt', 'rtc', 'rp',
  'math', 'mrow', 'mi', 'mn', 'mo', 'msup', 'msub', 'msubsup', 'mfrac', 'msqrt', 'mroot', 'mtext', 'mspace',
  'mtable', 'mtr', 'mtd', 'munder', 'mover', 'munderover', 'semantics', 'annotation',
];

// prettier-ignore
export const ALLOWED_ATTR = [
  // generic
  'class', 'title', 'lang', 'dir',
  // links and images
  'href', 'target', 'rel', 'src', 'alt', 'width', 'height',
  // tables
  'colspan', 'rowspan', 'scope', 'span', 'headers',
  // lists
  'start', 'type', 'reversed',
  // MathML presentation
  'display', 'mathvariant', 'encoding', 'stretchy', 'fence', 'separator', 'accent', 'accentunder',
  'linethickness', 'columnalign', 'rowalign', 'depth', 'lspace', 'rspace', 'form', 'movablelimits',
];

/** http(s), mailto, in-page anchors and relative URLs; everything else (javascript:, vbscript:, data: on links) goes. */
const ALLOWED_URI = /^(?:https?:|mailto:|#|\/(?!\/)|\.{1,2}\/|[^:/?#]*(?:[/?#]|$))/i;

const APP_CLASS = /^(?:mantine-|mf-|is-)/;

export class SanitizeError extends Error {
  override readonly name = 'SanitizeError';
  constructor(readonly passes: number) {
    super(`content did not stabilise after ${passes} sanitizer passes`);
  }
}

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  KEEP_CONTENT: true,
  RETURN_TRUSTED_TYPE: false,
};

type Purifier = (html: string) => string;

let defaultPurifier: Purifier | null = null;

/** Own DOMPurify instance: its hooks must not leak into other users of the global one. */
function createDomPurifier(): Purifier {
  const purify = DOMPurify(window);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'class') {
      const kept = data.attrValue.split(/\s+/).filter((token) => token && !APP_CLASS.test(token));
      data.attrValue = kept.join(' ');
      if (!kept.length) data.keepAttr = false;
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      if (node.hasAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else {
        node.removeAttribute('target');
        node.removeAttribute('rel');
      }
    } else {
      // target/rel only make sense on links; elsewhere they are noise an attacker could use for styling hooks.
      node.removeAttribute('target');
      node.removeAttribute('rel');
    }
  });
  return (html) => purify.sanitize(html, CONFIG) as string;
}

/**
 * Runs `purify` until the output equals its input; throws SanitizeError when that takes more than
 * MAX_SANITIZE_PASSES passes. The purifier is injectable so the rejection path can be tested.
 */
export function sanitizeWith(purify: Purifier, html: string): string {
  let input = html;
  for (let pass = 1; pass <= MAX_SANITIZE_PASSES; pass++) {
    const output = purify(input);
    if (output === input) return output;
    input = output;
  }
  throw new SanitizeError(MAX_SANITIZE_PASSES);
}

/** Safe HTML for `dangerouslySetInnerHTML`; throws SanitizeError for content that never stabilises. */
export function sanitizeHtml(html: string | null | undefined, purify?: Purifier): string {
  if (!html) return '';
  defaultPurifier ??= createDomPurifier();
  return sanitizeWith(purify ?? defaultPurifier, html);
}

/** Same as sanitizeHtml but rejected content becomes an empty string (logged), for rendering paths. */
export function sanitizeHtmlOrEmpty(html: string | null | undefined, purify?: Purifier): string {
  try {
    return sanitizeHtml(html, purify);
  } catch (error) {
    console.error(error);
    return '';
  }
}

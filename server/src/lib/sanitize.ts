import sanitizeHtmlLib from 'sanitize-html';

const MATHML = [
  'math',
  'mrow',
  'mi',
  'mn',
  'mo',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mtable',
  'mtr',
  'mtd',
  'munder',
  'mover',
  'munderover',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
  'semantics',
  'annotation',
];

/**
 * Allowlists for html shown to people (task texts, instructions, help). Images only from our own
 * files or data URIs; links only http(s)/mailto and opened safely; no scripts, styles blocks,
 * event handlers, iframes or forms.
 */
const OPTIONS: sanitizeHtmlLib.IOptions = {
  allowedTags: [
    'p',
    'br',
    'b',
    'i',
    'em',
    'strong',
    'u',
    's',
    'sub',
    'sup',
    'span',
    'div',
    'ul',
    'ol',
    'li',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'colgroup',
    'col',
    'img',
    'a',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'hr',
    'figure',
    'figcaption',
    'small',
    'mark',
    'dl',
    'dt',
    'dd',
    // Ruby annotations (East Asian readings; QTI allows them in item bodies).
    'ruby',
    'rb',
    'rt',
    'rtc',
    'rp',
    ...MATHML,
  ],
  allowedAttributes: {
    '*': ['class', 'title', 'lang', 'dir'],
    img: ['src', 'alt', 'width', 'height'],
    a: ['href', 'title', 'target', 'rel'],
    td: ['colspan', 'rowspan', 'align'],
    th: ['colspan', 'rowspan', 'align', 'scope'],
    col: ['span'],
    ol: ['start', 'type'],
    math: ['display', 'xmlns'],
    mo: ['stretchy', 'fence', 'separator', 'lspace', 'rspace'],
    mfrac: ['linethickness'],
    mtd: ['columnspan', 'rowspan'],
    mspace: ['width'],
    annotation: ['encoding'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['data', 'http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtmlLib.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }),
  },
  disallowedTagsMode: 'discard',
  parser: { lowerCaseAttributeNames: true },
};

/** Cleans html for display; run on the way out so stored content from any source is safe. */
/** The same task text is sanitized for every participant: remember recent results (pure function). */
const recent = new Map<string, string>();
const RECENT_MAX = 2_000;
const RECENT_MAX_LENGTH = 100_000;

export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  const hit = recent.get(html);
  if (hit !== undefined) return hit;
  const clean = sanitizeHtmlLib(html, OPTIONS);
  if (html.length <= RECENT_MAX_LENGTH) {
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(html, clean);
  }
  return clean;
}

/** Plain text of an html fragment (for PDFs, spreadsheets, search). */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return sanitizeHtmlLib(html.replace(/<(br|\/p|\/div|\/li|\/tr|\/h\d)\s*\/?>/gi, '\n$&'), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&nbsp;|\u00a0/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

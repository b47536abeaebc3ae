import sanitizeHtmlLib from 'sanitize-html';
import { cleanFileName, extensionOf, sniffFile } from '../../../lib/file-sniff.js';
import { sanitizeHtml } from '../../../lib/sanitize.js';
import { note, type ImportNote } from '../notes.js';

/*
 * Media of imported items: what may be stored as a task file, and how. Raster images and PDF are
 * recognised by their own bytes (lib/file-sniff); SVG is rebuilt through an allowlist (no scripts,
 * event handlers, foreignObject, animation, external references or style blocks); an html file
 * goes through the server's html sanitizer (lib/sanitize). Anything else is not kept: the item is
 * imported without it and says so in its notes.
 */

/** Largest media file kept (a task image, a PDF handout). */
export const MAX_MEDIA_BYTES = 20 * 1024 * 1024;

export interface CheckedMedia {
  name: string;
  mime: string;
  data: Buffer;
}

/** A media file kept (in what form), or the note saying why it is left out. */
export type MediaCheck = { ok: true; media: CheckedMedia } | { ok: false; note: ImportNote };

const KEPT = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']);

const SVG_TAGS = [
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'pattern',
  'marker',
  'filter',
  'feGaussianBlur',
  'feOffset',
  'feBlend',
  'feColorMatrix',
  'feMerge',
  'feMergeNode',
  'feFlood',
  'feComposite',
];

const SVG_ATTRIBUTES = [
  'id',
  'class',
  'xmlns',
  'xmlns:xlink',
  'version',
  'viewBox',
  'preserveAspectRatio',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'd',
  'points',
  'transform',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-miterlimit',
  'opacity',
  'color',
  'style',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'alignment-baseline',
  'letter-spacing',
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'clipPathUnits',
  'clip-path',
  'clip-rule',
  'mask',
  'maskUnits',
  'maskContentUnits',
  'markerWidth',
  'markerHeight',
  'markerUnits',
  'refX',
  'refY',
  'orient',
  'marker-start',
  'marker-mid',
  'marker-end',
  'filter',
  'filterUnits',
  'primitiveUnits',
  'in',
  'in2',
  'result',
  'stdDeviation',
  'mode',
  'type',
  'values',
  'operator',
  'k1',
  'k2',
  'k3',
  'k4',
  'flood-color',
  'flood-opacity',
  'visibility',
  'display',
  'href',
  'xlink:href',
];

/** A url(...) in a style or presentation attribute that is not a reference inside the same SVG. */
const EXTERNAL_URL = /url\(\s*(?!['"]?#)[^)]*\)/gi;

const SVG_OPTIONS: sanitizeHtmlLib.IOptions = {
  allowedTags: SVG_TAGS,
  allowedAttributes: { '*': SVG_ATTRIBUTES },
  // href is filtered below (only #fragment references survive); no scheme is ever allowed.
  allowedSchemes: [],
  allowedSchemesAppliedToAttributes: [],
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'foreignObject', 'textarea', 'noscript', 'title'],
  parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false, decodeEntities: true },
  transformTags: {
    '*': (tagName, attribs) => {
      const kept: Record<string, string> = {};
      for (const [name, value] of Object.entries(attribs)) {
        if (/^on/i.test(name)) continue;
        if ((name === 'href' || name === 'xlink:href') && !value.trim().startsWith('#')) continue;
        kept[name] = value.replace(EXTERNAL_URL, 'none');
      }
      return { tagName, attribs: kept };
    },
  },
};

/** Whether bytes are an SVG document (after a BOM, an XML declaration and comments). */
export function looksLikeSvg(data: Buffer): boolean {
  const head = data
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .replace(/<\?xml[\s\S]*?\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trimStart();
  return /^<svg[\s>]/i.test(head) || /^<!DOCTYPE\s+svg/i.test(head);
}

/** An SVG rebuilt from the allowlist: no script can survive (nor a DOCTYPE or entity). */
export function sanitizeSvg(svg: string): string {
  const withoutDoctype = svg.replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/gi, '');
  return sanitizeHtmlLib(withoutDoctype, SVG_OPTIONS).trim();
}

const withExtension = (name: string, ext: string) => {
  const stem = name.replace(/\.[A-Za-z0-9]{1,10}$/, '') || 'file';
  return `${stem}.${ext}`;
};

/** Checks one media file: what may be stored (and in what form), or why it is not kept. */
export function checkMedia(data: Buffer, nameHint: string): MediaCheck {
  const name = cleanFileName(nameHint.split('/').pop(), 'media');
  if (data.length === 0) return { ok: false, note: note('media_empty', { name }) };
  if (data.length > MAX_MEDIA_BYTES)
    return { ok: false, note: note('media_too_large', { name, mb: MAX_MEDIA_BYTES / 1024 / 1024 }) };
  const ext = extensionOf(name);
  if (ext === 'svg' || looksLikeSvg(data)) {
    const clean = sanitizeSvg(data.toString('utf8'));
    if (!/^<svg[\s>]/.test(clean)) return { ok: false, note: note('media_svg_unreadable', { name }) };
    return {
      ok: true,
      media: { name: withExtension(name, 'svg'), mime: 'image/svg+xml', data: Buffer.from(clean) },
    };
  }
  if (ext === 'html' || ext === 'htm') {
    const clean = sanitizeHtml(data.toString('utf8'));
    return {
      ok: true,
      media: { name: withExtension(name, 'html'), mime: 'text/html', data: Buffer.from(clean) },
    };
  }
  const sniffed = sniffFile(data, name);
  if (!sniffed || !KEPT.has(sniffed.mime)) return { ok: false, note: note('media_type_not_kept', { name }) };
  return { ok: true, media: { name: withExtension(name, sniffed.ext), mime: sniffed.mime, data } };
}

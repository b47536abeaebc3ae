import { parseXmlSafely } from '../safety/xml.js';
import { ImportRefusal, type SourceFormat } from './types.js';

/*
 * QTI XML as one small DOM for every version (read through parseXmlSafely only): QTI 2.x writes
 * camelCase elements (`choiceInteraction responseIdentifier=…`), QTI 3.0 kebab-case with a `qti-`
 * prefix (`qti-choice-interaction response-identifier=…`). Both become the QTI 2.x names, so the rest
 * of the parser reads one vocabulary. Namespace prefixes are dropped (`m:math` → `math`), namespace
 * declarations and `xml:`/`xsi:` attributes too; html elements inside an item body keep their names
 * and attributes as written. Text keeps its whitespace (mixed content).
 */

export interface XElement {
  kind: 'element';
  /** Local name, QTI 3 names as their QTI 2 equivalents. */
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
}
export interface XText {
  kind: 'text';
  text: string;
}
export type XNode = XElement | XText;

/** `qti-choice-interaction` → `choiceInteraction`, `base-type` → `baseType`, `any-n` → `anyN`. */
export const camel = (kebab: string): string =>
  kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function elementName(raw: string): { name: string; qti3: boolean } {
  const local = raw.includes(':') ? raw.slice(raw.indexOf(':') + 1) : raw;
  if (local.startsWith('qti-')) {
    return { name: camel(local.slice(4)), qti3: true };
  }
  return { name: local, qti3: false };
}

type RawNode = Record<string, unknown>;

function convert(raw: RawNode[]): XNode[] {
  const out: XNode[] = [];
  for (const node of raw) {
    if (typeof node['#text'] === 'string' || typeof node['#text'] === 'number') {
      const text = String(node['#text']);
      const last = out[out.length - 1];
      if (last?.kind === 'text') last.text += text;
      else out.push({ kind: 'text', text });
      continue;
    }
    const tag = Object.keys(node).find((k) => k !== ':@');
    if (!tag || tag.startsWith('?') || tag.startsWith('!')) continue;
    const { name, qti3 } = elementName(tag);
    const attrs: Record<string, string> = {};
    const rawAttrs = (node[':@'] ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(rawAttrs)) {
      if (key === 'xmlns' || key.startsWith('xmlns:') || key.startsWith('xsi:') || key.startsWith('xml:'))
        continue;
      const local = key.includes(':') ? key.slice(key.indexOf(':') + 1) : key;
      attrs[qti3 ? camel(local) : local] = String(value);
    }
    const children = Array.isArray(node[tag]) ? convert(node[tag] as RawNode[]) : [];
    out.push({ kind: 'element', name, attrs, children });
  }
  return out;
}

export interface QtiDocument {
  root: XElement;
  /** The QTI version the root's namespace (or naming) says. */
  format: SourceFormat;
}

/** The QTI version of a document: the root's namespace, else the naming (qti- prefix: 3.0). */
export function formatOf(rawRootTag: string, namespace: string | undefined): SourceFormat {
  const ns = namespace ?? '';
  if (/v3p0|qtiv3|imsqtiasi/i.test(ns) || /(^|:)qti-/.test(rawRootTag)) return 'qti30';
  if (/v2p2/i.test(ns)) return 'qti22';
  return 'qti21';
}

/** Parses one QTI file (item, test, manifest, result, template) into the normalised DOM. */
export function readQtiXml(data: Buffer | string, where: string): QtiDocument {
  const raw = parseXmlSafely(data, where, {
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
  }) as RawNode[];
  const rootRaw = raw.find((n) => Object.keys(n).some((k) => k !== ':@' && k !== '#text'));
  const rootTag = rootRaw ? Object.keys(rootRaw).find((k) => k !== ':@' && k !== '#text') : undefined;
  const root = convert(raw).find((n): n is XElement => n.kind === 'element');
  if (!root || !rootTag) throw new ImportRefusal('xml_malformed', `${where}: the file has no root element`);
  const rootAttrs = (rootRaw?.[':@'] ?? {}) as Record<string, unknown>;
  const ns = typeof rootAttrs.xmlns === 'string' ? rootAttrs.xmlns : undefined;
  return { root, format: formatOf(rootTag, ns) };
}

// ---------------------------------------------------------------- reading helpers

export const isElement = (n: XNode | undefined): n is XElement => n?.kind === 'element';

/** Child elements, optionally of one name (or one of several). */
export function kids(el: XElement, ...names: string[]): XElement[] {
  return el.children.filter((c): c is XElement => isElement(c) && (!names.length || names.includes(c.name)));
}

/** The first child element of this name. */
export const kid = (el: XElement, name: string): XElement | undefined => kids(el, name)[0];

/** Every descendant element (depth first, document order) of one of these names. */
export function descendants(el: XElement, names: readonly string[]): XElement[] {
  const out: XElement[] = [];
  const walk = (e: XElement) => {
    for (const c of e.children)
      if (isElement(c)) {
        if (names.includes(c.name)) out.push(c);
        walk(c);
      }
  };
  walk(el);
  return out;
}

/** The text content of an element (all descendant text, as written). */
export function textOf(node: XNode): string {
  return node.kind === 'text' ? node.text : node.children.map(textOf).join('');
}

/** An attribute, or undefined. */
export const attr = (el: XElement, name: string): string | undefined => el.attrs[name];

/** A boolean attribute ("true"/"false"), or the fallback. */
export function boolAttr(el: XElement, name: string, fallback: boolean): boolean {
  const v = el.attrs[name]?.trim();
  return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : fallback;
}

/** A whole-number attribute, or the fallback (also when it is not a whole number). */
export function intAttr(el: XElement, name: string, fallback?: number): number | undefined {
  const v = el.attrs[name]?.trim();
  return v !== undefined && /^[+-]?\d{1,9}$/.test(v) ? Number(v) : fallback;
}

/** A number attribute, or undefined. */
export function numAttr(el: XElement, name: string): number | undefined {
  const v = el.attrs[name]?.trim();
  if (v === undefined || v === '') return undefined;
  const x = Number(v);
  return Number.isFinite(x) ? x : undefined;
}

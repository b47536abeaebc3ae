import { XMLParser, XMLValidator, type X2jOptions } from 'fast-xml-parser';
import { ImportRefusal } from '../parsers/types.js';

/*
 * The only way the content import reads XML (as participant-test/import-xml.parse.ts does): any
 * `<!DOCTYPE` or `<!ENTITY` is refused before parsing, so there is no entity expansion (billion
 * laughs) and no external entity (XXE) to resolve; fast-xml-parser fetches nothing anyway. Only the
 * five predefined entities (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`) and character references
 * (`&#233;`, `&#x398;`) are decoded, in text and attributes, in one pass (`&amp;#233;` stays the
 * text `&#233;`), by our own decoder (`xmlEntityDecoder`); any other `&name;` stays as written.
 * Nesting is limited, the text is decoded as its BOM or declaration says (`xmlText`), and a file
 * that is not well-formed is refused as a whole (`xml_malformed`).
 */

/** Deepest element nesting accepted (QTI item bodies hold html tables in lists in blocks…). */
export const MAX_XML_DEPTH = 64;
/** Largest XML file read (one QTI item; a Moodle export with its images inline, as large as an upload). */
export const MAX_XML_BYTES = 50 * 1024 * 1024;

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** A character XML 1.0 allows in a document (§2.2): a reference to any other stays as written. */
const xmlChar = (cp: number) =>
  cp === 0x9 ||
  cp === 0xa ||
  cp === 0xd ||
  (cp >= 0x20 && cp <= 0xd7ff) ||
  (cp >= 0xe000 && cp <= 0xfffd) ||
  (cp >= 0x10000 && cp <= 0x10ffff);

/** `&#233;` `&#xE9;` and the five predefined entities decoded in one pass; anything else as written. */
export function decodeXmlReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9A-Fa-f]{1,8}|#[0-9]{1,10}|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref]!;
    const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return xmlChar(cp) ? String.fromCodePoint(cp) : whole;
  });
}

/**
 * fast-xml-parser's entity decoder, replaced by ours: DOCTYPE entities never reach it (a DOCTYPE
 * is refused before parsing), and it knows no entity a document could declare or add.
 */
const xmlEntityDecoder: NonNullable<X2jOptions['entityDecoder']> = {
  setExternalEntities: () => {},
  addInputEntities: () => {},
  reset: () => {},
  setXmlVersion: () => {},
  decode: decodeXmlReferences,
};

const FORCED: X2jOptions = {
  processEntities: true,
  htmlEntities: false,
  entityDecoder: xmlEntityDecoder,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH,
};

/** The encoding a BOM names, with the BOM's length. */
function bomOf(data: Buffer): { label: string; length: number } | null {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return { label: 'utf-8', length: 3 };
  if (data[0] === 0xff && data[1] === 0xfe) return { label: 'utf-16le', length: 2 };
  if (data[0] === 0xfe && data[1] === 0xff) return { label: 'utf-16be', length: 2 };
  return null;
}

/** The encoding an XML declaration names (read as ASCII: every encoding a declaration may name without a BOM keeps ASCII as it is). */
const declaredEncoding = (head: string): string | undefined =>
  /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(head)?.[1];

/**
 * Text of an XML file, decoded as its BOM or its declaration says (XML 1.0 §4.3.3): UTF-8 by
 * default; UTF-16 by its BOM; a declared legacy encoding (ISO-8859-1, windows-1251, KOI8-R,
 * Shift_JIS…) transcoded by the WHATWG decoders of TextDecoder. An encoding it does not know, or
 * bytes that are not valid in the encoding, refuse the file (`xml_encoding`); a package skips that
 * file alone, with a note (qti-package.ts).
 */
export function xmlText(data: Buffer | string, where: string): string {
  if (typeof data !== 'string' && data.length > MAX_XML_BYTES)
    throw new ImportRefusal('package_too_large', `${where}: an XML file larger than ${MAX_XML_BYTES} bytes`);
  if (typeof data === 'string') return data.charCodeAt(0) === 0xfeff ? data.slice(1) : data;
  const bom = bomOf(data);
  const declared = bom ? undefined : declaredEncoding(data.subarray(0, 512).toString('latin1'));
  const label = bom?.label ?? (declared && !/^utf-?8$/i.test(declared) ? declared : 'utf-8');
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label, { fatal: true, ignoreBOM: true });
  } catch {
    throw new ImportRefusal('xml_encoding', `${where}: the encoding ${label.slice(0, 40)} is not supported`);
  }
  let text: string;
  try {
    text = decoder.decode(bom ? data.subarray(bom.length) : data);
  } catch {
    throw new ImportRefusal('xml_encoding', `${where}: the file is not valid ${label.slice(0, 40)}`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The encoding a file's BOM or declaration names (`utf-8` when none), for notes. */
export function xmlEncodingOf(data: Buffer): string {
  return (bomOf(data)?.label ?? declaredEncoding(data.subarray(0, 512).toString('latin1')) ?? 'utf-8').slice(
    0,
    40,
  );
}

/** Refuses DOCTYPE and ENTITY declarations (XXE, billion laughs) anywhere in the text. */
export function assertNoDoctype(text: string, where: string): void {
  if (/<!\s*(DOCTYPE|ENTITY)/i.test(text))
    throw new ImportRefusal('xml_malformed', `${where}: DOCTYPE and ENTITY declarations are not allowed`);
}

/**
 * Parses an XML file safely. `options` are fast-xml-parser's, except those that make it safe
 * (entities, depth, declarations), which are forced. The result is fast-xml-parser's (an object, or
 * an array with `preserveOrder`); a parser checks its shape itself.
 */
export function parseXmlSafely(data: Buffer | string, where: string, options: X2jOptions = {}): unknown {
  const text = xmlText(data, where);
  assertNoDoctype(text, where);
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw new ImportRefusal(
      'xml_malformed',
      `${where}: not well-formed XML (line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg})`,
    );
  try {
    return new XMLParser({ ...options, ...FORCED }).parse(text);
  } catch (error) {
    // The parser's own limits (nesting depth) end here as a plain Error.
    const msg = error instanceof Error ? error.message : String(error);
    throw new ImportRefusal('xml_malformed', `${where}: the XML cannot be read (${msg.slice(0, 200)})`);
  }
}

/**
 * The name of the root element (with its prefix, if any), read without parsing the document: after
 * the declaration, comments and processing instructions. Null when the text does not start like XML.
 * A DOCTYPE before the root is refused.
 */
export function rootElementName(text: string, where: string): string | null {
  let rest = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let guard = 0; guard < 1000; guard++) {
    rest = rest.trimStart();
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end < 0) return null;
      rest = rest.slice(end + 2);
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end < 0) return null;
      rest = rest.slice(end + 3);
    } else if (/^<!\s*(DOCTYPE|ENTITY)/i.test(rest)) {
      assertNoDoctype(rest, where);
    } else {
      return /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)[\s/>]/.exec(rest)?.[1] ?? null;
    }
  }
  return null;
}

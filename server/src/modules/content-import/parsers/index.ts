import { extensionOf } from '../../../lib/file-sniff.js';
import { looksLikeZip, openSafePackage, ZIP_LIMITS, type ZipLimits } from '../safety/zip.js';
import { rootElementName } from '../safety/xml.js';
import { giftParser } from './gift.js';
import { moodleParser } from './moodle.js';
import { qtiParser } from './qti.js';
import { unsupportedFormat, type FormatParser, type ParseInput, type ParsedBatch } from './types.js';

export * from './types.js';

/*
 * Which parser reads a file (issue 11):
 * - a zip package with imsmanifest.xml at its root → QTI (opened and checked by ../safety/zip.ts);
 * - an .xml file whose root is `quiz` → Moodle XML; `assessmentItem`, `assessmentTest`,
 *   `qti-assessment-item`, `qti-assessment-test` → QTI (a bare item or test);
 * - a .gift or .txt file → GIFT.
 * Anything else is refused as `unsupported_format`. Each format's parser lives in its own file.
 */

export type ParserKey = 'qti' | 'moodle' | 'gift';

const registry = new Map<ParserKey, FormatParser>([
  ['qti', qtiParser],
  ['moodle', moodleParser],
  ['gift', giftParser],
]);

/** The parser of a kind of file. */
export const parserFor = (key: ParserKey): FormatParser => registry.get(key)!;

/** Replaces the parser of a kind of file (tests register fakes); returns a function putting the old one back. */
export function registerParser(key: ParserKey, parser: FormatParser): () => void {
  const previous = registry.get(key)!;
  registry.set(key, parser);
  return () => void registry.set(key, previous);
}

const QTI_ROOTS = new Set(['assessmentItem', 'assessmentTest', 'qti-assessment-item', 'qti-assessment-test']);

/** The parser key and its input for an uploaded file; a zip is opened and checked here. */
export async function detectFile(
  name: string,
  bytes: Buffer,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<{ key: ParserKey; input: ParseInput }> {
  const ext = extensionOf(name);
  if (looksLikeZip(bytes)) {
    const pkg = await openSafePackage(bytes, limits);
    if (pkg.has('imsmanifest.xml')) return { key: 'qti', input: { package: pkg } };
    throw unsupportedFormat('A zip package must have imsmanifest.xml at its root (a QTI content package)');
  }
  if (ext === 'gift' || ext === 'txt') return { key: 'gift', input: { name, bytes } };
  const head = bytes.subarray(0, 64 * 1024).toString('utf8');
  if (
    ext === 'xml' ||
    head
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('<')
  ) {
    const root = rootElementName(head, name);
    const local = root?.replace(/^[\w.-]+:/, '') ?? '';
    if (local === 'quiz') return { key: 'moodle', input: { name, bytes } };
    if (QTI_ROOTS.has(local)) return { key: 'qti', input: { name, bytes } };
    throw unsupportedFormat('An XML file must be Moodle XML (<quiz>) or a QTI item or test');
  }
  throw unsupportedFormat('Send a QTI package (.zip), a Moodle XML (.xml) or a GIFT (.gift, .txt) file');
}

/** Reads one uploaded file into a batch, by the parser its kind calls for. */
export async function parseFile(
  name: string,
  bytes: Buffer,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<ParsedBatch> {
  const { key, input } = await detectFile(name, bytes, limits);
  return parserFor(key).parse(input);
}

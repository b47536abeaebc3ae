import { assertNoDoctype, rootElementName, xmlEncodingOf, xmlText } from '../safety/xml.js';
import { note, type ImportNote } from '../notes.js';
import { parseQtiItem, type QtiItemResult } from './qti-item.js';
import { attr, descendants, kids, readQtiXml, type QtiDocument, type XElement } from './qti-xml.js';
import {
  ImportRefusal,
  unsupportedFormat,
  type ParsedBatch,
  type ParsedItem,
  type ParsedTest,
  type SafePackage,
  type SourceFormat,
} from './types.js';

/*
 * A QTI content package (imsmanifest.xml) or a loose QTI file as a batch:
 * - the manifest's resources of an item type (imsqti_item_xmlv2p1, …v2p2, …v3p0) are the items,
 *   those of a test type the tests; without QTI resources in the manifest every XML file of the
 *   package whose root is an item or test is read;
 * - a test becomes one ParsedTest: its sections in order, nested sections flattened in order (a
 *   section's items, then its subsection's, then the rest of its own), each item reference resolved
 *   by its href against the test file (an item the manifest does not list is read too);
 * - response processing templates, stimuli, results and other files are not items (skipped);
 * - an item is its resource (file): its key is its path, and its identifier is data (the task's
 *   sourceId), so two files with one identifier are two items (1EdTech's items.zip has such pairs).
 * A DOCTYPE anywhere refuses the package; an item file that is not well-formed, or whose encoding
 * cannot be read (one the decoders do not know, bytes not valid in it), is refused alone.
 */

const ITEM_TYPE = /^imsqti_(?:apip)?item_xmlv(?:2p0|2p1|2p2|3p0)/i;
const TEST_TYPE = /^imsqti_(?:apip)?test_xmlv(?:2p0|2p1|2p2|3p0)/i;
const QTI1_TYPE = /^imsqti_xmlv1p/i;
const ITEM_ROOTS = new Set(['assessmentItem', 'qti-assessment-item']);
const TEST_ROOTS = new Set(['assessmentTest', 'qti-assessment-test']);

/** A file of the package read as QTI, or why it could not be (not well-formed; an encoding not read). */
function readDoc(pkg: SafePackage, path: string): QtiDocument | { error: string } | { encoding: string } {
  const bytes = pkg.read(path);
  let text: string;
  try {
    text = xmlText(bytes, path);
  } catch (error) {
    if (error instanceof ImportRefusal && error.code === 'xml_encoding')
      return { encoding: xmlEncodingOf(bytes) };
    throw error;
  }
  assertNoDoctype(text, path);
  try {
    return readQtiXml(text, path);
  } catch (error) {
    if (error instanceof ImportRefusal && error.code === 'xml_malformed') return { error: error.message };
    throw error;
  }
}

const localRoot = (name: string | null) => (name ?? '').replace(/^[\w.-]+:/, '');

interface Listing {
  items: string[];
  tests: string[];
  qti1: number;
}

/** Item and test files the manifest lists (in its order), else those found by their root element. */
function listFiles(pkg: SafePackage): Listing {
  const out: Listing = { items: [], tests: [], qti1: 0 };
  const add = (list: string[], path: string | null) => {
    if (path && pkg.has(path) && !list.includes(path)) list.push(path);
  };
  if (pkg.has('imsmanifest.xml')) {
    const manifest = readQtiXml(pkg.read('imsmanifest.xml'), 'imsmanifest.xml').root;
    for (const resource of descendants(manifest, ['resource'])) {
      const type = attr(resource, 'type') ?? '';
      const href = attr(resource, 'href') ?? attr(kids(resource, 'file')[0] ?? resource, 'href');
      const path = href ? pkg.resolve('imsmanifest.xml', href) : null;
      if (ITEM_TYPE.test(type)) add(out.items, path);
      else if (TEST_TYPE.test(type)) add(out.tests, path);
      else if (QTI1_TYPE.test(type)) out.qti1++;
    }
  }
  if (out.items.length || out.tests.length) return out;
  for (const path of pkg.paths) {
    if (!/\.xml$/i.test(path) || path === 'imsmanifest.xml') continue;
    const root = localRoot(rootElementName(pkg.readText(path).slice(0, 64 * 1024), path));
    if (ITEM_ROOTS.has(root)) add(out.items, path);
    else if (TEST_ROOTS.has(root)) add(out.tests, path);
    else if (root === 'questestinterop') out.qti1++;
  }
  return out;
}

interface TestOutline {
  sourceId: string;
  title: string;
  /** Sections in order, each with the item files it refers to. */
  sections: { title?: string; paths: string[] }[];
}

/** The sections of a test in order, nested sections flattened, section references followed. */
function outlineTest(pkg: SafePackage, path: string, root: XElement): TestOutline {
  const sections: TestOutline['sections'] = [];
  let current: { el: XElement; entry: { title?: string; paths: string[] } } | null = null;
  const seenFiles = new Set<string>([path]);
  const itemRef = (section: XElement, href: string | undefined, from: string) => {
    const file = href ? pkg.resolve(from, href) : null;
    if (!file) return;
    if (current?.el !== section) {
      const title = attr(section, 'title')?.trim();
      current = { el: section, entry: { ...(title ? { title } : {}), paths: [] } };
      sections.push(current.entry);
    }
    current.entry.paths.push(file);
  };
  /** The children of a test part or section: item refs, sections, section refs (files), in order. */
  const contents = (el: XElement, from: string, depth: number) => {
    if (depth > 20) return;
    for (const child of kids(el)) {
      if (child.name === 'assessmentItemRef') itemRef(el, attr(child, 'href'), from);
      else if (child.name === 'assessmentSection') contents(child, from, depth + 1);
      else if (child.name === 'assessmentSectionRef') {
        const file = pkg.resolve(from, attr(child, 'href') ?? '');
        if (!file || seenFiles.has(file) || !pkg.has(file)) continue;
        seenFiles.add(file);
        const doc = readDoc(pkg, file);
        if ('root' in doc && doc.root.name === 'assessmentSection') contents(doc.root, file, depth + 1);
      }
    }
  };
  for (const part of kids(root, 'testPart')) contents(part, path, 0);
  const sourceId = (attr(root, 'identifier') ?? '').trim() || path;
  return { sourceId, title: (attr(root, 'title') ?? '').trim() || sourceId, sections };
}

/** The most frequent version among the files read (the first one's on a tie). */
function batchFormat(formats: SourceFormat[]): SourceFormat {
  const counts = new Map<SourceFormat, number>();
  for (const f of formats) counts.set(f, (counts.get(f) ?? 0) + 1);
  let best: SourceFormat = formats[0] ?? 'qti21';
  for (const [f, n] of counts) if (n > (counts.get(best) ?? 0)) best = f;
  return best;
}

const refusedFile = (path: string, reason: ImportNote): ParsedItem => ({
  sourceId: path,
  key: path,
  file: path,
  title: path.split('/').pop() ?? path,
  outcome: 'refused',
  notes: [reason],
  media: [],
});

/** Every item and test of a checked package (`details` by source id: for tests; the last item of an id wins). */
export function parseQtiPackage(pkg: SafePackage): ParsedBatch & { details: Map<string, QtiItemResult> } {
  const listing = listFiles(pkg);
  const formats: SourceFormat[] = [];
  const outlines: TestOutline[] = [];
  for (const path of listing.tests) {
    const doc = readDoc(pkg, path);
    if (!('root' in doc) || doc.root.name !== 'assessmentTest') continue;
    formats.push(doc.format);
    const outline = outlineTest(pkg, path, doc.root);
    outlines.push(outline);
    for (const s of outline.sections)
      for (const p of s.paths) if (pkg.has(p) && !listing.items.includes(p)) listing.items.push(p);
  }
  if (!listing.items.length) {
    if (listing.qti1)
      throw unsupportedFormat('QTI 1.x packages are not supported: export as QTI 2.1, 2.2 or 3.0');
    throw new ImportRefusal('import_invalid', 'The package holds no QTI items');
  }

  const items: ParsedItem[] = [];
  const details = new Map<string, QtiItemResult>();
  const read = new Set<string>();
  for (const path of listing.items) {
    const doc = readDoc(pkg, path);
    if ('encoding' in doc) {
      items.push(refusedFile(path, note('qti_file_encoding', { encoding: doc.encoding })));
      continue;
    }
    if (!('root' in doc)) {
      items.push(refusedFile(path, note('qti_xml_malformed', { details: doc.error })));
      continue;
    }
    if (doc.root.name !== 'assessmentItem') continue; // a template, stimulus or result listed as an item
    formats.push(doc.format);
    const result = parseQtiItem({ root: doc.root, format: doc.format, path, pkg });
    // Resources are distinct files: an identifier another resource uses too is kept as data only.
    items.push({ ...result.item, key: path, file: path });
    details.set(result.item.sourceId, result);
    read.add(path);
  }
  const tests: ParsedTest[] = outlines.map((o) => ({
    sourceId: o.sourceId,
    title: o.title,
    sections: o.sections.map((s) => ({
      ...(s.title ? { title: s.title } : {}),
      itemKeys: s.paths.filter((p) => read.has(p)),
    })),
  }));
  return { format: batchFormat(formats), items, tests, details };
}

/** A loose QTI file: one item (a test needs its package). */
export function parseQtiFile(
  name: string,
  bytes: Buffer,
): ParsedBatch & { details: Map<string, QtiItemResult> } {
  const doc = readQtiXml(bytes, name);
  switch (doc.root.name) {
    case 'assessmentItem': {
      const result = parseQtiItem({ root: doc.root, format: doc.format, path: name });
      return {
        format: doc.format,
        items: [result.item],
        tests: [],
        details: new Map([[result.item.sourceId, result]]),
      };
    }
    case 'assessmentTest':
      throw new ImportRefusal(
        'import_invalid',
        'A QTI test refers to its items by file: import the package (.zip) holding the test and its items',
      );
    case 'responseProcessing':
      throw unsupportedFormat('A QTI response processing template is not an item');
    case 'assessmentResult':
      throw unsupportedFormat('A QTI assessment result holds responses, not items');
    default:
      throw unsupportedFormat('The file is not a QTI item');
  }
}

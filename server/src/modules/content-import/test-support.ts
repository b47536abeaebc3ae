import { crc32, deflateRawSync } from 'node:zlib';
import type { FormatParser, ParsedBatch } from './parsers/types.js';
import { parseXmlSafely } from './safety/xml.js';

/* Shared by the content-import tests: a zip writer that can also lie, and fake parsers. */

export interface RawEntry {
  name: string;
  data?: Buffer;
  /** 0 store, 8 deflate (default 8). */
  method?: 0 | 8;
  /** What the headers claim instead of the truth. */
  declaredSize?: number;
  /** Unix mode (with versionMadeBy Unix), e.g. 0o120777 for a symbolic link. */
  unixMode?: number;
  /** General purpose flags (1 = encrypted). */
  flags?: number;
}

/** A zip written byte by byte, so tests can make the packages no zip tool would. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0);
    const method = e.method ?? 8;
    const body = method === 8 ? deflateRawSync(data) : data;
    const name = Buffer.from(e.name, 'utf8');
    const size = e.declaredSize ?? data.length;
    const crc = crc32(data);
    const flags = (e.flags ?? 0) | 0x800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(e.unixMode !== undefined ? (e.unixMode << 16) >>> 0 : 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export const MANIFEST =
  '<?xml version="1.0" encoding="UTF-8"?><manifest identifier="m"><resources/></manifest>';

/** A tiny PNG (signature and header chunk). */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
]);

/**
 * A fake QTI parser: the package's imsmanifest.xml is read through the safe XML reader (so its
 * DOCTYPE is refused as a real parser's would be), the batch itself comes from batch.json.
 */
export const fakeQtiParser: FormatParser = {
  name: 'fake-qti',
  parse(input) {
    if (!('package' in input)) throw new Error('fake-qti reads packages only');
    parseXmlSafely(input.package.read('imsmanifest.xml'), 'imsmanifest.xml');
    return JSON.parse(input.package.readText('batch.json'), (key, value: unknown) =>
      key === 'bytes' && typeof value === 'string' ? Buffer.from(value, 'base64') : value,
    ) as ParsedBatch;
  },
};

/** A fake Moodle parser: the whole file through the safe XML reader, one short-text item per <question>. */
export const fakeMoodleParser: FormatParser = {
  name: 'fake-moodle',
  parse(input) {
    if (!('bytes' in input)) throw new Error('fake-moodle reads files only');
    const doc = parseXmlSafely(input.bytes, input.name, {
      ignoreAttributes: false,
      isArray: (n) => n === 'question',
    }) as {
      quiz?: { question?: { name?: string; answer?: string }[] };
    };
    return {
      format: 'moodle',
      tests: [],
      items: (doc.quiz?.question ?? []).map((q, i) => ({
        sourceId: `q${i + 1}`,
        title: String(q.name ?? `q${i + 1}`),
        category: ['Moodle'],
        outcome: 'imported',
        notes: [],
        media: [],
        task: {
          answerType: 'short_text',
          html: `<p>${String(q.name ?? '')}</p>`,
          content: { maxLength: 100 },
          reference: { accepted: [String(q.answer ?? 'x')] },
          scoring: { method: 'all_or_nothing' },
          maxScore: 1,
        },
      })),
    };
  },
};

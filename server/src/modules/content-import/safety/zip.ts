import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { ImportRefusal, type SafePackage } from '../parsers/types.js';

/*
 * Opening an uploaded zip package without letting it hurt the server (issue 11). The package is
 * refused as a whole — `package_too_large` or `package_unsafe`, nothing created — when:
 * - it has more entries, or declares more inflated bytes (in all, or in one entry), than the limits;
 * - an entry inflates to more than it declares, more than the limits, or more than MAX_RATIO times
 *   its compressed size: the bytes are counted WHILE inflating, so a lying header is caught after at
 *   most one chunk beyond its claim (yauzl's validateEntrySizes, and our own counters);
 * - an entry name is absolute, climbs out with `..`, holds a backslash or control characters, or
 *   repeats another's name; an entry is a symbolic link or another special file; an entry is
 *   encrypted or compressed by a method other than store/deflate; a CRC does not match;
 * - the zip cannot be read at all.
 * What passes is held in memory (at most MAX_TOTAL_BYTES) and handed to parsers as a SafePackage.
 */

export interface ZipLimits {
  /** Most entries (files and folders). */
  maxEntries: number;
  /** Most inflated bytes of all entries together. */
  maxTotalBytes: number;
  /** Most inflated bytes of one entry. */
  maxEntryBytes: number;
  /** Highest inflated/compressed ratio of an entry larger than ratioFloorBytes. */
  maxRatio: number;
  /** Entries up to this many inflated bytes are not held to maxRatio (tiny files compress well). */
  ratioFloorBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 5000,
  maxTotalBytes: 200 * 1024 * 1024,
  maxEntryBytes: 50 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

const tooLarge = (message: string) => new ImportRefusal('package_too_large', message);
const unsafe = (message: string) => new ImportRefusal('package_unsafe', message);

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
/** versionMadeBy's high byte: the system whose attributes externalFileAttributes carries. */
const UNIX = 3;

/** An entry name as a clean relative path, or null for a folder; refuses unsafe names. */
function entryPath(entry: yauzl.Entry): string | null {
  const name = entry.fileName;
  // eslint-disable-next-line no-control-regex
  if (!name || name.length > 1024 || /[\u0000-\u001f\u007f\\]/.test(name))
    throw unsafe('An entry name is empty, too long or holds control characters or backslashes');
  if (/^([a-zA-Z]:|\/)/.test(name)) throw unsafe('An entry name is an absolute path');
  const segments = name.split('/');
  if (segments.includes('..')) throw unsafe('An entry name leaves the package (..)');
  const isFolder = name.endsWith('/');
  const clean = segments.filter((s) => s !== '' && s !== '.').join('/');
  if (isFolder) return null;
  if (!clean) throw unsafe('An entry has no name');
  return clean;
}

/** Refuses links, devices and the like: only regular files and folders may be in a package. */
function assertPlainEntry(entry: yauzl.Entry): void {
  if (entry.versionMadeBy >>> 8 === UNIX) {
    const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
    if (mode !== 0 && mode !== S_IFREG && mode !== S_IFDIR)
      throw unsafe('The package holds a symbolic link or another special file');
  }
  if (entry.isEncrypted()) throw unsafe('The package holds an encrypted entry');
  if (!entry.canDecodeFileData() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8))
    throw unsafe('The package holds an entry compressed by an unsupported method');
}

/** The message of a yauzl error turned into our refusal. */
function refusalOf(error: unknown): ImportRefusal {
  if (error instanceof ImportRefusal) return error;
  const msg = error instanceof Error ? error.message : String(error);
  if (/too many bytes/i.test(msg)) return tooLarge('An entry inflates to more bytes than it declares');
  if (/absolute path|relative path|invalid characters/i.test(msg))
    return unsafe('An entry name is absolute or leaves the package');
  return unsafe('The zip package cannot be read (damaged or not a zip)');
}

class MemoryPackage implements SafePackage {
  constructor(private readonly entries: Map<string, Buffer>) {}

  get paths(): readonly string[] {
    return [...this.entries.keys()];
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  read(path: string): Buffer {
    const data = this.entries.get(path);
    if (!data) throw unsafe('A file the package refers to is not in it');
    return data;
  }

  readText(path: string): string {
    const text = this.read(path).toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  resolve(fromPath: string, ref: string): string | null {
    return resolvePackagePath(fromPath, ref);
  }
}

/**
 * A reference resolved against the folder of the file it is written in; null for URLs, absolute
 * paths, and anything that would leave the package.
 */
export function resolvePackagePath(fromPath: string, ref: string): string | null {
  const bare = ref.trim().replace(/[?#].*$/, '');
  if (!bare || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(bare) || bare.startsWith('/')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(decoded)) return null;
  const parts = fromPath.split('/').slice(0, -1);
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length ? parts.join('/') : null;
}

/** Whether the bytes start like a zip (local file header, or the end record of an empty zip). */
export const looksLikeZip = (data: Buffer) =>
  data.length >= 4 &&
  data[0] === 0x50 &&
  data[1] === 0x4b &&
  ((data[2] === 0x03 && data[3] === 0x04) || (data[2] === 0x05 && data[3] === 0x06));

/** Opens, checks and inflates a package; refuses it whole at the first problem. */
export async function openSafePackage(data: Buffer, limits: ZipLimits = ZIP_LIMITS): Promise<SafePackage> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(data, {
      lazyEntries: true,
      validateEntrySizes: true,
      strictFileNames: true,
      decodeStrings: true,
      autoClose: true,
    });
  } catch (error) {
    throw refusalOf(error);
  }
  const entries = new Map<string, Buffer>();
  try {
    if (zip.entryCount > limits.maxEntries)
      throw tooLarge(`The package has more than ${limits.maxEntries} entries`);
    let declaredTotal = 0;
    let inflatedTotal = 0;
    for await (const entry of zip.eachEntry()) {
      const path = entryPath(entry);
      assertPlainEntry(entry);
      if (path === null) continue;
      if (entries.has(path)) throw unsafe('Two entries of the package have the same name');
      // What the headers claim, first: refuse before inflating anything.
      declaredTotal += entry.uncompressedSize;
      if (entry.uncompressedSize > limits.maxEntryBytes)
        throw tooLarge(`An entry would inflate to more than ${limits.maxEntryBytes} bytes`);
      if (declaredTotal > limits.maxTotalBytes)
        throw tooLarge(`The package would inflate to more than ${limits.maxTotalBytes} bytes`);
      const ratioOf = (bytes: number) => bytes / Math.max(1, entry.compressedSize);
      if (
        entry.uncompressedSize > limits.ratioFloorBytes &&
        ratioOf(entry.uncompressedSize) > limits.maxRatio
      )
        throw tooLarge(`An entry is compressed more than ${limits.maxRatio} times (a zip bomb?)`);

      // Then what it really inflates to, counted as it inflates.
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          inflatedTotal += chunk.length;
          if (size > limits.maxEntryBytes)
            throw tooLarge(`An entry inflates to more than ${limits.maxEntryBytes} bytes`);
          if (inflatedTotal > limits.maxTotalBytes)
            throw tooLarge(`The package inflates to more than ${limits.maxTotalBytes} bytes`);
          if (size > limits.ratioFloorBytes && ratioOf(size) > limits.maxRatio)
            throw tooLarge(`An entry is compressed more than ${limits.maxRatio} times (a zip bomb?)`);
          chunks.push(chunk);
        }
      } finally {
        stream.destroy();
      }
      const bytes = Buffer.concat(chunks, size);
      if (size !== entry.uncompressedSize) throw unsafe('An entry inflates to other than it declares');
      if (crc32(bytes) !== entry.crc32) throw unsafe('An entry is damaged (CRC mismatch)');
      entries.set(path, bytes);
    }
  } catch (error) {
    throw refusalOf(error);
  } finally {
    zip.close();
  }
  return new MemoryPackage(entries);
}

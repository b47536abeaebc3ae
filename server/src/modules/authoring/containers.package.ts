import type { FieldError } from '@attesta/contract';
import { badRequest } from '../../lib/errors.js';
import { extensionOf, sniffFile } from '../../lib/file-sniff.js';
import {
  ImportRefusal,
  looksLikeZip,
  openSafePackage,
  sanitizeSvg,
  ZIP_LIMITS,
  type ZipLimits,
} from '../content-import/index.js';
import type { StoredResource } from './containers.repo.js';

/*
 * What an uploaded container zip may hold, and in what form it is stored (issue 11;
 * docs/html-containers.md). The zip goes through the content import's safety layer first (limits
 * counted while inflating, no `..`, absolute names, links or special files: 400 `package_unsafe` /
 * `package_too_large`). Then every file must be one the sandboxed routes can serve:
 * - where: beside the entry page, or in `bundles/` (the routes take one path segment, or
 *   `bundles/<name>`); a zip whose files all sit in one folder is read from inside it. Anything
 *   deeper: 400 `container_file_refused`;
 * - what: html, css, scripts, json and text (valid UTF-8, kept as they are: scripts run inside the
 *   sandbox, whose CSP stops them reaching the app, the API or the network), raster pictures
 *   recognised by their bytes (stored under the type they really are), SVG rebuilt through the
 *   import's allowlist (no scripts), and fonts recognised by their bytes. Anything else: 400
 *   `container_file_refused` naming the file;
 * - the entry page is the named html file at the root, else index.html, else the only html file at
 *   the root: none is 400 `container_no_entry`.
 * Junk of archivers (`__MACOSX/`, dot files, Thumbs.db) is left out. All or nothing.
 */

export const CONTAINER_ZIP_LIMITS: ZipLimits = {
  ...ZIP_LIMITS,
  maxEntries: 1000,
  maxTotalBytes: 50 * 1024 * 1024,
  maxEntryBytes: 20 * 1024 * 1024,
};

const TEXT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};
const PICTURES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const PICTURE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp']);

const startsWith = (data: Buffer, bytes: number[]) =>
  data.length >= bytes.length && bytes.every((b, i) => data[i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** A font by its own first bytes (the CSP allows fonts from the container itself). */
function fontMime(data: Buffer, ext: string): string | null {
  if (ext === 'woff' && startsWith(data, ascii('wOFF'))) return 'font/woff';
  if (ext === 'woff2' && startsWith(data, ascii('wOF2'))) return 'font/woff2';
  if (ext === 'otf' && startsWith(data, ascii('OTTO'))) return 'font/otf';
  if (ext === 'ttf' && (startsWith(data, [0, 1, 0, 0]) || startsWith(data, ascii('true')))) return 'font/ttf';
  return null;
}

const isUtf8 = (data: Buffer) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
};

type Refusal = 'folder' | 'name' | 'type' | 'text';
const MESSAGES: Record<Refusal, string> = {
  folder: 'files must lie beside the entry page or in bundles/',
  name: 'a file name must not hold ?, #, % or be `index`',
  type: 'not a kind of file a container may hold (html, css, js, json, txt, pictures, svg, fonts)',
  text: 'a text file that is not valid UTF-8',
};

const refuse = (path: string, why: Refusal) => {
  const error: FieldError = { path: 'file', message: MESSAGES[why], code: why, params: { name: path } };
  return badRequest('container_file_refused', `A file of the zip cannot be served: ${MESSAGES[why]}`, [
    error,
  ]);
};

const isJunk = (path: string) => {
  const name = path.split('/').pop()!;
  return path.startsWith('__MACOSX/') || name.startsWith('.') || /^(thumbs\.db|desktop\.ini)$/i.test(name);
};

/** A file as it is stored: its type (sniffed, or by extension for checked text) and bytes. */
function storedForm(path: string, data: Buffer): StoredResource {
  const ext = extensionOf(path);
  const text = TEXT_TYPES[ext];
  if (text) {
    if (!isUtf8(data)) throw refuse(path, 'text');
    return { path, mime: text, data };
  }
  if (ext === 'svg') {
    if (!isUtf8(data)) throw refuse(path, 'text');
    const clean = sanitizeSvg(data.toString('utf8'));
    if (!/^<svg[\s>]/.test(clean)) throw refuse(path, 'type');
    return { path, mime: 'image/svg+xml', data: Buffer.from(clean, 'utf8') };
  }
  if (PICTURE_EXTENSIONS.has(ext)) {
    const sniffed = sniffFile(data, path);
    if (!sniffed || !PICTURES.has(sniffed.mime)) throw refuse(path, 'type');
    return { path, mime: sniffed.mime, data };
  }
  const font = fontMime(data, ext);
  if (font) return { path, mime: font, data };
  throw refuse(path, 'type');
}

/** The paths as the routes serve them: the one folder all files share (if any) taken away. */
function servedPaths(paths: string[]): Map<string, string> {
  const first = paths[0]?.split('/')[0];
  const wrapped =
    first !== undefined &&
    first !== 'bundles' &&
    paths.every((p) => p.startsWith(`${first}/`) && p.length > first.length + 1);
  return new Map(paths.map((p) => [p, wrapped ? p.slice(first.length + 1) : p]));
}

function checkPlace(path: string): void {
  const segments = path.split('/');
  if (segments.length > 2 || (segments.length === 2 && segments[0] !== 'bundles'))
    throw refuse(path, 'folder');
  const name = segments.at(-1)!;
  if (/[?#%]/.test(name) || name.length > 200 || (segments.length === 1 && name === 'index'))
    throw refuse(path, 'name');
}

const isRootHtml = (path: string) => !path.includes('/') && /\.html?$/i.test(path);

function entryOf(paths: string[], named: string | undefined): string {
  if (named !== undefined) {
    const wanted = named.replace(/^\.\//, '');
    if (isRootHtml(wanted) && paths.includes(wanted)) return wanted;
    throw badRequest(
      'container_no_entry',
      'The named entry page is not an html file at the root of the zip',
      [{ path: 'entry', message: 'no such html file at the root of the zip', code: 'not_found' }],
    );
  }
  for (const name of ['index.html', 'index.htm']) if (paths.includes(name)) return name;
  const html = paths.filter(isRootHtml);
  if (html.length === 1) return html[0]!;
  throw badRequest('container_no_entry', 'The zip has no index.html at its root: name the entry page', [
    { path: 'entry', message: 'name the entry page', code: 'required' },
  ]);
}

/** Checks an uploaded zip and gives the files to store and the entry page; refuses it whole. */
export async function readContainerZip(
  data: Buffer,
  named: string | undefined,
  limits: ZipLimits = CONTAINER_ZIP_LIMITS,
): Promise<{ entry: string; files: StoredResource[] }> {
  if (!looksLikeZip(data)) throw badRequest('unsupported_format', 'A container is uploaded as a zip');
  let pkg;
  try {
    pkg = await openSafePackage(data, limits);
  } catch (error) {
    if (error instanceof ImportRefusal) throw badRequest(error.code, error.message);
    throw error;
  }
  const kept = pkg.paths.filter((p) => !isJunk(p));
  const served = servedPaths(kept);
  const files: StoredResource[] = [];
  for (const [original, path] of served) {
    checkPlace(path);
    files.push(storedForm(path, pkg.read(original)));
  }
  const paths = files.map((f) => f.path);
  return { entry: entryOf(paths, named), files };
}

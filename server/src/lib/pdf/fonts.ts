import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

/**
 * Fonts come from the `dejavu-fonts-ttf` package, resolved in node_modules at run time (never
 * copied into the repo): DejaVu covers Cyrillic, Latin, Greek and the maths signs task texts use
 * (≤ ≥ ≠ √ π °), and pdfkit embeds only the glyphs a document uses. Resolving from
 * `import.meta.url` works alike from the sources (tsx, vitest) and from the tsup bundle in dist/.
 */
const require = createRequire(import.meta.url);

const FONT_FILES = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  mono: 'DejaVuSansMono.ttf',
} as const;

/** Names to pass to `doc.font(...)` in every Attesta PDF. */
export type FontName = keyof typeof FONT_FILES;

let resolved: Record<FontName, string> | null = null;

/** Absolute paths of the font files (resolved once; throws a clear error if the package is missing). */
export function fontPaths(): Record<FontName, string> {
  if (resolved) return resolved;
  const entries = Object.entries(FONT_FILES).map(([name, file]) => {
    try {
      return [name, require.resolve(`dejavu-fonts-ttf/ttf/${file}`)];
    } catch {
      throw new Error(`PDF font ${file} not found: is the dejavu-fonts-ttf package installed?`);
    }
  });
  resolved = Object.fromEntries(entries) as Record<FontName, string>;
  return resolved;
}

const parsed = new Map<FontName, Font>();

/** Shaped words kept per font; past this many the cache starts over (names and codes vary). */
export const SHAPED_WORDS_KEPT = 5_000;

/** A copy of a glyph run (its class kept) with positions of its own: pdfkit scales them in place. */
function copyRun<Run extends { positions: object[] }>(run: Run): Run {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(run) as object) as Run, run);
  copy.positions = run.positions.map((p) =>
    Object.assign(Object.create(Object.getPrototypeOf(p) as object) as object, p),
  );
  return copy;
}

/**
 * Shapes each word once per process: pdfkit lays text out word by word and keeps the runs only
 * for one document, and shaping (fontkit applying DejaVu's substitution and positioning tables)
 * was the largest cost of a table-heavy PDF once the fonts were parsed once. Runs with explicit
 * OpenType features or a script go to fontkit as before. The glyphs are fontkit's own, shared
 * already; each caller gets fresh positions.
 */
function shapeOnce(font: Font): Font {
  const shape = font.layout.bind(font);
  const shaped = new Map<string, { positions: object[] }>();
  font.layout = (text: string, ...rest: unknown[]) => {
    if (rest.some((arg) => arg !== undefined)) return shape(text, ...rest);
    let run = shaped.get(text);
    if (!run) {
      if (shaped.size >= SHAPED_WORDS_KEPT) shaped.clear();
      run = shape(text) as { positions: object[] };
      shaped.set(text, run);
    }
    return copyRun(run);
  };
  return font;
}

/**
 * Gives a glyph its characters when it was first made without them. DejaVu draws many letters
 * from others (Cyrillic Р from Latin P, Ё from Е): writing a document's subset asks fontkit for
 * such a component by id alone, and fontkit keeps each glyph as first asked for. With the font
 * shared by every document of the process, a later layout of Latin P got that glyph with no
 * characters, and pdfkit wrote an empty ToUnicode entry: the text looked right but copied and
 * searched wrong (a verification code came out as "R-5UF)-5YUH").
 */
function characterfulGlyphs(font: Font): Font {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id: number, codePoints?: number[]) => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && codePoints?.length && !glyph.codePoints.length) glyph.codePoints = codePoints;
    return glyph;
  };
  return font;
}

/**
 * The parsed font of `name`, read and parsed once per process and shared by every document:
 * fontkit decodes a table (metrics of DejaVu's ~6,000 glyphs, names, shaping) on first use and
 * keeps it, so a later document starts with them decoded. pdfkit takes the parsed font as is and
 * still gives each document its own subset of glyphs. (Given a file path instead, pdfkit reads and
 * parses the file once per document — and again at every `doc.font(...)` switch to a font whose
 * PostScript name it already holds under another key, as a table's cells do.) Words are shaped
 * once per process too (shapeOnce).
 */
export function fontFace(name: FontName): Font {
  let font = parsed.get(name);
  if (!font) {
    const face = create(readFileSync(fontPaths()[name]));
    if (!('layout' in face)) throw new Error(`PDF font ${FONT_FILES[name]} is a collection, not one font`);
    parsed.set(name, (font = shapeOnce(characterfulGlyphs(face))));
  }
  return font;
}

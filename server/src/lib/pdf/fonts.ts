import { createRequire } from 'node:module';

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

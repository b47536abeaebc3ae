/**
 * The part of fontkit (pdfkit's own font engine, a dependency of pdfkit; it ships no types) that
 * fonts.ts uses: parse a font file once, hand the parsed font to pdfkit, mend a glyph's characters.
 */
declare module 'fontkit' {
  export interface Font {
    postscriptName: string;
    layout(text: string, ...options: unknown[]): unknown;
    /** The glyph of `id`, made on first request and kept (with the characters it was first asked with). */
    getGlyph(id: number, codePoints?: number[]): Glyph | null;
  }
  export interface Glyph {
    id: number;
    codePoints: number[];
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font | FontCollection;
}

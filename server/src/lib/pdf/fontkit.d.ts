/**
 * The part of fontkit (pdfkit's own font engine, a dependency of pdfkit; it ships no types) that
 * fonts.ts uses: parse a font file once, hand the parsed font to pdfkit.
 */
declare module 'fontkit' {
  export interface Font {
    postscriptName: string;
    layout(text: string, ...options: unknown[]): unknown;
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font | FontCollection;
}

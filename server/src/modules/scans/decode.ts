import sharp from 'sharp';
import { AppError, badRequest } from '../../lib/errors.js';
import { renderPdfPage } from '../../lib/pdf/render.js';
import type { GreyImage } from './recognize.marks.js';

/*
 * Scanned files → greyscale pages for the reader. Raster images (PNG, JPEG, TIFF, multi-page TIFF)
 * are decoded by sharp (libvips; its prebuilt binary comes inside the npm package), PDFs rendered by
 * pdf.js (its legacy build, for Node) onto a Skia canvas (@napi-rs/canvas, prebuilt in its package).
 * Every limit is checked before a page's pixels are decoded: a small file that inflates to a
 * gigapixel (a decompression bomb) is refused from its header, never allocated.
 */

export const SCAN_LIMITS = {
  /** Pixels of one decoded page or embedded image: an A4 at 600 dpi is 35 million. */
  maxPixels: 40_000_000,
  /** Pages of one file. */
  maxPages: 300,
  /** A page is read at most this many pixels on its long side (A4 at ~220 dpi): enough for bubbles. */
  maxSide: 2600,
  /** A PDF page is rendered with this many pixels on its long side (A4 at ~170 dpi). */
  pdfSide: 2000,
  /** A PDF page larger than this many points on a side (A4 is 842) is not a scanned sheet. */
  maxPdfPagePt: 14_400,
};

export type ScanKind = 'pdf' | 'png' | 'jpeg' | 'tiff';

const startsWith = (data: Buffer, bytes: number[]) =>
  data.length >= bytes.length && bytes.every((b, i) => data[i] === b);

/** What a scan file is, from its first bytes; null when it is none of the kinds read. */
export function sniffScan(data: Buffer): ScanKind | null {
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x49, 0x49, 0x2a, 0x00]) || startsWith(data, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  return null;
}

export const unsupportedScan = () =>
  badRequest('unsupported_file_type', 'A scan must be a PDF, TIFF, JPEG or PNG file');
export const invalidImage = () =>
  badRequest('invalid_image', 'The image cannot be decoded (damaged or incomplete)');
export const invalidPdf = () => badRequest('invalid_pdf', 'The PDF cannot be read (damaged or not a PDF)');
export const imageTooLarge = () =>
  badRequest(
    'image_too_large',
    `A page has more than ${SCAN_LIMITS.maxPixels / 1_000_000} million pixels: scan at 600 dpi or less`,
  );
export const tooManyPages = () =>
  badRequest('too_many_pages', `A file may have at most ${SCAN_LIMITS.maxPages} pages`);

export interface ScanPage {
  /** 1-based page of the file. */
  page: number;
  image: GreyImage;
}

/** The pages of a scan file and how to decode each, every limit checked on the headers first. */
export interface OpenedScan {
  kind: ScanKind;
  pageCount: number;
  /** Decodes the pages one by one (400 for a page that cannot be decoded); closes the file after. */
  pages(): AsyncGenerator<ScanPage>;
  /** Lets the file go without reading its pages. */
  close(): Promise<void>;
}

async function openRaster(data: Buffer, kind: ScanKind): Promise<OpenedScan> {
  let pageCount: number;
  try {
    const meta = await sharp(data, { limitInputPixels: false, pages: 1 }).metadata();
    if (!meta.width || !meta.height) throw invalidImage();
    if (meta.width * meta.height > SCAN_LIMITS.maxPixels) throw imageTooLarge();
    pageCount = meta.pages ?? 1;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalidImage();
  }
  if (pageCount > SCAN_LIMITS.maxPages) throw tooManyPages();
  return {
    kind,
    pageCount,
    close: async () => undefined,
    async *pages() {
      for (let page = 0; page < pageCount; page++) {
        try {
          // The limit again, per page: a multi-page TIFF's later pages may be larger than its first.
          const { data: pixels, info } = await sharp(data, {
            limitInputPixels: SCAN_LIMITS.maxPixels,
            page,
            failOn: 'error',
          })
            .autoOrient()
            .greyscale()
            .resize(SCAN_LIMITS.maxSide, SCAN_LIMITS.maxSide, { fit: 'inside', withoutEnlargement: true })
            .raw()
            .toBuffer({ resolveWithObject: true });
          const channels = info.channels;
          const grey = channels === 1 ? new Uint8Array(pixels) : dropAlpha(pixels, channels);
          yield { page: page + 1, image: { width: info.width, height: info.height, data: grey } };
        } catch (error) {
          if (error instanceof AppError) throw error;
          const message = error instanceof Error ? error.message : '';
          throw /pixel limit/i.test(message) ? imageTooLarge() : invalidImage();
        }
      }
    },
  };
}

function dropAlpha(pixels: Buffer, channels: number): Uint8Array {
  const out = new Uint8Array(pixels.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = pixels[i * channels]!;
  return out;
}

async function openPdf(data: Buffer): Promise<OpenedScan> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let document: Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>;
  try {
    document = await pdfjs.getDocument({
      data: new Uint8Array(data),
      verbosity: 0,
      isEvalSupported: false,
      maxImageSize: SCAN_LIMITS.maxPixels,
      stopAtErrors: true,
    }).promise;
  } catch {
    throw invalidPdf();
  }
  if (document.numPages > SCAN_LIMITS.maxPages) {
    await document.destroy();
    throw tooManyPages();
  }
  return {
    kind: 'pdf',
    pageCount: document.numPages,
    close: () => document.destroy(),
    async *pages() {
      try {
        for (let n = 1; n <= document.numPages; n++) {
          let image: GreyImage;
          try {
            const page = await document.getPage(n);
            const natural = page.getViewport({ scale: 1 });
            if (Math.max(natural.width, natural.height) > SCAN_LIMITS.maxPdfPagePt) throw imageTooLarge();
            const scale = SCAN_LIMITS.pdfSide / Math.max(natural.width, natural.height);
            const { width, height, rgba } = await renderPdfPage(page, scale);
            const grey = new Uint8Array(width * height);
            for (let i = 0, o = 0; i < grey.length; i++, o += 4)
              grey[i] = (rgba[o]! * 299 + rgba[o + 1]! * 587 + rgba[o + 2]! * 114) / 1000;
            page.cleanup();
            image = { width, height, data: grey };
          } catch (error) {
            if (error instanceof AppError) throw error;
            throw invalidPdf();
          }
          yield { page: n, image };
        }
      } finally {
        await document.destroy();
      }
    },
  };
}

/** Opens a scan file: its kind and page count, with every header-level limit checked (400 otherwise). */
export async function openScan(data: Buffer): Promise<OpenedScan> {
  const kind = sniffScan(data);
  if (!kind) throw unsupportedScan();
  return kind === 'pdf' ? openPdf(data) : openRaster(data, kind);
}

import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** A page drawn to pixels: RGBA, row by row from the top left. */
export interface RenderedPage {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/**
 * Draws one page of a pdf.js document (its legacy build, which runs on Node 20) at `scale` pixels
 * per PDF point onto a white Skia canvas (@napi-rs/canvas, whose prebuilt binary comes inside its
 * npm package). Used to read scanned PDFs (modules/scans) and, in tests, to check the printed forms.
 */
export async function renderPdfPage(page: PDFPageProxy, scale: number): Promise<RenderedPage> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  // pdf.js types its canvas as the DOM's; the Skia canvas is what its Node canvas factory uses too.
  const target = canvas as unknown as Parameters<typeof page.render>[0]['canvas'];
  await page.render({ canvas: target, viewport }).promise;
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  return { width: canvas.width, height: canvas.height, rgba: data };
}

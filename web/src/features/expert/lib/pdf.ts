/**
 * PDF attachments drawn by pdf.js (pdfjs-dist), loaded on first use so the rest of the app does not
 * carry it. Its worker is bundled and served by our own server (CSP `worker-src 'self'`, works
 * without any outside host); eval is switched off so the CSP needs no `unsafe-eval`. The browser's
 * own viewer is not used: the CSP allows no blob: frames, and headless or locked-down browsers
 * often have none.
 */

export interface PdfPageSize {
  width: number;
  height: number;
}

/** An open document: its page count, a page drawn onto a canvas, and closing it. */
export interface PdfDocument {
  numPages: number;
  /** The page's size at 100 % and no rotation (CSS pixels). */
  pageSize(page: number): Promise<PdfPageSize>;
  /** Draws `page` at `scale` turned by `rotation` onto `canvas`, sharp on high-density screens. */
  render(page: number, canvas: HTMLCanvasElement, scale: number, rotation: number): Promise<void>;
  destroy(): void;
}

export async function openPdf(data: ArrayBuffer): Promise<PdfDocument> {
  const [pdfjs, worker] = await Promise.all([
    import('pdfjs-dist'),
    import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
  ]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  const doc = await pdfjs.getDocument({ data, isEvalSupported: false, useSystemFonts: true }).promise;
  let current: { cancel(): void } | null = null;
  return {
    numPages: doc.numPages,
    async pageSize(page) {
      const p = await doc.getPage(page);
      const viewport = p.getViewport({ scale: 1 });
      return { width: viewport.width, height: viewport.height };
    },
    async render(page, canvas, scale, rotation) {
      current?.cancel();
      const p = await doc.getPage(page);
      const viewport = p.getViewport({ scale, rotation: (p.rotate + rotation) % 360 });
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const task = p.render({
        canvas,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      current = task;
      try {
        await task.promise;
      } catch (error) {
        // A newer render of this canvas cancelled this one: not a failure.
        if ((error as { name?: string }).name !== 'RenderingCancelledException') throw error;
      }
    },
    destroy() {
      current?.cancel();
      void doc.destroy();
    },
  };
}

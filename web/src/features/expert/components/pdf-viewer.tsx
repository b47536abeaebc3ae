/**
 * A PDF answer, one page at a time (pdf.js on a canvas): previous / next, a page number to jump to,
 * Page Up / Page Down; zoom, fit to width, 100 % and quarter turns as for images. The page scrolls
 * inside its own stage, so the answer pane around it never moves.
 */
import { Alert, Box, Loader } from '@mantine/core';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { openPdf, type PdfDocument, type PdfPageSize } from '../lib/pdf';
import {
  applyView,
  clampPage,
  fitScale,
  INITIAL_VIEW,
  scaleOf,
  viewerAction,
  type ViewerAction,
} from '../lib/viewer';
import { useElementWidth } from '../hooks/use-element-width';
import { ViewerToolbar } from './viewer-toolbar';

export function PdfViewer({
  data,
  name,
  fileId,
  t,
}: {
  data: ArrayBuffer;
  name: string;
  fileId: number;
  t: LooseT;
}) {
  const stage = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useElementWidth(stage);
  const [doc, setDoc] = useState<PdfDocument | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<PdfPageSize | null>(null);
  const [view, setView] = useState(INITIAL_VIEW);

  useEffect(() => {
    let cancelled = false;
    let opened: PdfDocument | null = null;
    // pdf.js hands the bytes over to its worker: give it a copy, so a second opening still has them.
    openPdf(data.slice(0))
      .then((d) => {
        if (cancelled) return d.destroy();
        opened = d;
        setDoc(d);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      opened?.destroy();
    };
  }, [data]);

  useEffect(() => {
    if (!doc) return;
    let cancelled = false;
    doc
      .pageSize(page)
      .then((s) => !cancelled && setSize(s))
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [doc, page]);

  // The stage has a scroll bar of its own: fit the width inside it.
  const fitted = size ? fitScale(size.width, size.height, view.rotation, Math.max(0, width - 16)) : 1;
  const scale = scaleOf(view, fitted);

  useEffect(() => {
    if (!doc || !canvas.current || !size) return;
    doc.render(page, canvas.current, scale, view.rotation).catch(() => setFailed(true));
  }, [doc, page, size, scale, view.rotation]);

  const count = doc?.numPages ?? 0;
  const goTo = (next: number) => {
    setPage(clampPage(next, count));
    stage.current?.scrollTo?.({ top: 0 });
  };
  const act = (action: ViewerAction) => {
    if (action === 'prevPage') goTo(page - 1);
    else if (action === 'nextPage') goTo(page + 1);
    else setView((v) => applyView(v, action, fitted));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = viewerAction(event);
    // Arrows scroll the page inside the stage, natively.
    if (!action || action.startsWith('pan')) return;
    event.preventDefault();
    event.stopPropagation();
    act(action);
  };

  const testId = `pdf-${fileId}`;
  if (failed)
    return (
      <Alert color="red" variant="light">
        {t('expert.grading.fileFailed', { name })}
      </Alert>
    );
  return (
    <div data-testid={testId}>
      <ViewerToolbar
        t={t}
        scale={scale}
        fit={view.fit}
        onAction={act}
        testId={testId}
        {...(count ? { paging: { page, count, onPage: goTo } } : {})}
      />
      <Box
        ref={stage}
        className="grading-viewer-stage grading-viewer-scroll"
        tabIndex={0}
        role="group"
        aria-label={t('expert.viewer.pdfLabel', { name, page, count })}
        aria-roledescription={t('expert.viewer.rolePdf')}
        onKeyDown={onKeyDown}
        data-testid={`${testId}-stage`}
      >
        {!doc && <Loader size="sm" m="sm" />}
        <canvas ref={canvas} data-testid={`${testId}-canvas`} data-page={page} />
      </Box>
    </div>
  );
}

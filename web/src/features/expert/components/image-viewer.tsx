/**
 * A photographed or scanned answer: fits the pane's width at first; zoom (buttons, + / −, Ctrl +
 * wheel), 100 %, quarter turns (buttons, R / Shift+R) and panning (drag, arrow keys, wheel) inside
 * its own stage, so the answer pane around it never moves.
 */
import { Box } from '@mantine/core';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import {
  applyView,
  fitScale,
  INITIAL_VIEW,
  scaleOf,
  transformOf,
  turnedSize,
  viewerAction,
  type ViewerAction,
} from '../lib/viewer';
import { useElementWidth } from '../hooks/use-element-width';
import { ViewerToolbar } from './viewer-toolbar';

const STAGE_MIN = 160;
const STAGE_MAX_VH = 0.7;

export function ImageViewer({
  url,
  name,
  fileId,
  t,
}: {
  url: string;
  name: string;
  fileId: number;
  t: LooseT;
}) {
  const stage = useRef<HTMLDivElement>(null);
  const width = useElementWidth(stage);
  const [natural, setNatural] = useState({ w: 0, h: 0 });
  const [view, setView] = useState(INITIAL_VIEW);
  const fitted = fitScale(natural.w, natural.h, view.rotation, width);
  const scale = scaleOf(view, fitted);
  const [turnedW, turnedH] = turnedSize(natural.w * scale, natural.h * scale, view.rotation);
  const maxHeight = Math.round((typeof window === 'undefined' ? 800 : window.innerHeight) * STAGE_MAX_VH);
  const stageHeight = natural.h ? Math.max(STAGE_MIN, Math.min(turnedH, maxHeight)) : 320;
  // A picture larger than its stage starts at its top-left corner, not its middle.
  const baseX = width ? Math.max(0, (turnedW - width) / 2) : 0;
  const baseY = Math.max(0, (turnedH - stageHeight) / 2);
  const act = (action: ViewerAction) => setView((v) => applyView(v, action, fitted));

  // Wheel: Ctrl zooms; a picture taller than its stage pans; otherwise the pane scrolls as usual.
  const wheel = useRef({ fitted, overflows: turnedH > stageHeight });
  useEffect(() => {
    wheel.current = { fitted, overflows: turnedH > stageHeight };
  });
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      if (event.ctrlKey) {
        event.preventDefault();
        const action = event.deltaY < 0 ? 'zoomIn' : 'zoomOut';
        setView((v) => applyView(v, action, wheel.current.fitted));
      } else if (wheel.current.overflows) {
        event.preventDefault();
        setView((v) => ({ ...v, panX: v.panX - event.deltaX, panY: v.panY - event.deltaY }));
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const drag = useRef<{ x: number; y: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const from = drag.current;
    if (!from) return;
    drag.current = { x: event.clientX, y: event.clientY };
    setView((v) => ({ ...v, panX: v.panX + event.clientX - from.x, panY: v.panY + event.clientY - from.y }));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = viewerAction(event);
    if (!action || action === 'prevPage' || action === 'nextPage') return;
    event.preventDefault();
    event.stopPropagation();
    act(action);
  };

  const testId = `image-${fileId}`;
  return (
    <div>
      <ViewerToolbar t={t} scale={scale} fit={view.fit} onAction={act} testId={testId} />
      <Box
        ref={stage}
        className="grading-viewer-stage"
        tabIndex={0}
        role="group"
        aria-label={t('expert.viewer.imageLabel', { name })}
        aria-roledescription={t('expert.viewer.roleImage')}
        style={{ height: stageHeight }}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        data-testid={`${testId}-stage`}
      >
        <img
          src={url}
          alt={name}
          draggable={false}
          onLoad={(event) =>
            setNatural({ w: event.currentTarget.naturalWidth, h: event.currentTarget.naturalHeight })
          }
          style={{
            position: 'absolute',
            left: '50%',
            top: '50%',
            maxWidth: 'none',
            width: natural.w || undefined,
            height: natural.h || undefined,
            transform: transformOf({ ...view, panX: view.panX + baseX, panY: view.panY + baseY }, scale),
            transformOrigin: 'center center',
            userSelect: 'none',
          }}
          data-testid={testId}
        />
      </Box>
    </div>
  );
}

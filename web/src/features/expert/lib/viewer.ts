/**
 * The arithmetic of the attachment viewers (images and PDF pages): zoom steps, fit to width,
 * quarter turns, panning and page numbers. Pure, so the viewers stay thin and this is unit-tested.
 */

/** The zoom levels the buttons and + / − step through (1 = 100 %). */
export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5];
export const MIN_ZOOM = ZOOM_STEPS[0]!;
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1]!;

export type Rotation = 0 | 90 | 180 | 270;

/** What the expert chose: fit to the pane's width, or a zoom level; a quarter-turn rotation; a pan. */
export interface ViewState {
  fit: boolean;
  zoom: number;
  rotation: Rotation;
  panX: number;
  panY: number;
}

export const INITIAL_VIEW: ViewState = { fit: true, zoom: 1, rotation: 0, panX: 0, panY: 0 };

/** The next zoom step above `current` (from a fitted scale too). */
export function zoomIn(current: number): number {
  return ZOOM_STEPS.find((z) => z > current + 1e-6) ?? MAX_ZOOM;
}

/** The next zoom step below `current`. */
export function zoomOut(current: number): number {
  return [...ZOOM_STEPS].reverse().find((z) => z < current - 1e-6) ?? MIN_ZOOM;
}

/** A quarter turn clockwise (+1) or counter-clockwise (−1). */
export function rotate(rotation: Rotation, direction: 1 | -1): Rotation {
  return ((((rotation + direction * 90) % 360) + 360) % 360) as Rotation;
}

/** Width and height of a `width × height` picture once turned by `rotation`. */
export function turnedSize(width: number, height: number, rotation: Rotation): [number, number] {
  return rotation === 90 || rotation === 270 ? [height, width] : [width, height];
}

/**
 * The scale at which the turned picture fills `paneWidth`: never more than 100 % (a small scan is
 * not blown up), 1 while the sizes are unknown (not loaded, or no layout as in tests).
 */
export function fitScale(width: number, height: number, rotation: Rotation, paneWidth: number): number {
  const [turnedWidth] = turnedSize(width, height, rotation);
  if (!(turnedWidth > 0) || !(paneWidth > 0)) return 1;
  return Math.min(1, paneWidth / turnedWidth);
}

/** The scale in force. */
export function scaleOf(view: ViewState, fitted: number): number {
  return view.fit ? fitted : view.zoom;
}

/** The CSS transform of the picture, centred in its stage. */
export function transformOf(view: ViewState, scale: number): string {
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return `translate(-50%, -50%) translate(${round(view.panX)}px, ${round(view.panY)}px) rotate(${view.rotation}deg) scale(${round(scale)})`;
}

/** A page number within 1..count (whatever was typed). */
export function clampPage(page: number, count: number): number {
  if (count < 1) return 1;
  if (!Number.isFinite(page)) return 1;
  return Math.min(count, Math.max(1, Math.round(page)));
}

/** Zoom as a percentage for labels. */
export const percent = (scale: number) => Math.round(scale * 100);

export type ViewerAction =
  | 'zoomIn'
  | 'zoomOut'
  | 'fit'
  | 'actual'
  | 'rotateRight'
  | 'rotateLeft'
  | 'panLeft'
  | 'panRight'
  | 'panUp'
  | 'panDown'
  | 'prevPage'
  | 'nextPage';

/**
 * The viewer's keys while it has focus: + / − zoom, W fits the width, A shows 100 %, R turns
 * clockwise (Shift+R back), arrows pan, Page Up / Page Down page through a PDF. Digits are left to
 * the rubric (a digit scores the current criterion wherever the focus is outside a field).
 */
export function viewerAction(event: { key: string; shiftKey?: boolean }): ViewerAction | null {
  switch (event.key) {
    case '+':
    case '=':
      return 'zoomIn';
    case '-':
    case '_':
      return 'zoomOut';
    case 'w':
    case 'W':
    case 'ц':
    case 'Ц':
      return 'fit';
    case 'a':
    case 'A':
    case 'ф':
    case 'Ф':
      return 'actual';
    case 'r':
    case 'к':
      return event.shiftKey ? 'rotateLeft' : 'rotateRight';
    case 'R':
    case 'К':
      return 'rotateLeft';
    case 'ArrowLeft':
      return 'panLeft';
    case 'ArrowRight':
      return 'panRight';
    case 'ArrowUp':
      return 'panUp';
    case 'ArrowDown':
      return 'panDown';
    case 'PageUp':
      return 'prevPage';
    case 'PageDown':
      return 'nextPage';
    default:
      return null;
  }
}

/** How far one arrow key pans (CSS pixels). */
export const PAN_STEP = 60;

/** The view after `action` (`fitted`: the fit-to-width scale now). Page actions leave it as it is. */
export function applyView(view: ViewState, action: ViewerAction, fitted: number): ViewState {
  const scale = scaleOf(view, fitted);
  switch (action) {
    case 'zoomIn':
      return { ...view, fit: false, zoom: zoomIn(scale) };
    case 'zoomOut':
      return { ...view, fit: false, zoom: zoomOut(scale) };
    case 'fit':
      return { ...view, fit: true, panX: 0, panY: 0 };
    case 'actual':
      return { ...view, fit: false, zoom: 1 };
    case 'rotateRight':
      return { ...view, rotation: rotate(view.rotation, 1), panX: 0, panY: 0 };
    case 'rotateLeft':
      return { ...view, rotation: rotate(view.rotation, -1), panX: 0, panY: 0 };
    case 'panLeft':
      return { ...view, panX: view.panX + PAN_STEP };
    case 'panRight':
      return { ...view, panX: view.panX - PAN_STEP };
    case 'panUp':
      return { ...view, panY: view.panY + PAN_STEP };
    case 'panDown':
      return { ...view, panY: view.panY - PAN_STEP };
    default:
      return view;
  }
}

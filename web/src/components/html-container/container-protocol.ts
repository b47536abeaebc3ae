/**
 * The postMessage protocol between the runner and an html container (docs/html-containers.md).
 *
 * container → runner: `{type: 'attesta:ready'}` (optional: "send me init"),
 *   `{type: 'attesta:answer', value}` (the task's answer value, TASK_SCHEMAS[answerType].value),
 *   `{type: 'attesta:resize', height}` (content height in CSS pixels).
 * runner → container: `{type: 'attesta:init', protocol, answerType, content, value, readOnly}`,
 *   after the frame loads, on `ready`, and again when the state changes from outside the frame
 *   (the work is paused, a newer answer came from the server).
 *
 * The container runs in an opaque-origin sandbox: its messages arrive with origin "null" and
 * are taken only from that frame's own window.
 */
import type { TaskAnswerType } from '@attesta/contract';

export const CONTAINER_PROTOCOL_VERSION = 1;
/** Frame height until the container tells its own, and the bounds of what it may ask for. */
export const CONTAINER_HEIGHT = { initial: 360, min: 120, max: 4000 } as const;

export type ContainerMessage =
  | { type: 'attesta:ready' }
  | { type: 'attesta:answer'; value: unknown }
  | { type: 'attesta:resize'; height: number };

/** A message a container sent, or null for anything else (other tools use postMessage too). */
export function parseContainerMessage(data: unknown): ContainerMessage | null {
  if (!data || typeof data !== 'object') return null;
  const message = data as Record<string, unknown>;
  switch (message.type) {
    case 'attesta:ready':
      return { type: 'attesta:ready' };
    case 'attesta:answer':
      return 'value' in message ? { type: 'attesta:answer', value: message.value } : null;
    case 'attesta:resize':
      return typeof message.height === 'number' && Number.isFinite(message.height)
        ? { type: 'attesta:resize', height: message.height }
        : null;
    default:
      return null;
  }
}

export interface ContainerInit {
  type: 'attesta:init';
  protocol: number;
  answerType: TaskAnswerType;
  /** The task's public content (TASK_SCHEMAS[answerType].content): options, lengths… */
  content: Record<string, unknown>;
  /** The saved answer to restore, or null when there is none yet. */
  value: unknown;
  /** True while answers cannot be changed (a paused work): show, do not edit. */
  readOnly: boolean;
}

export function initMessage(
  answerType: TaskAnswerType,
  content: Record<string, unknown>,
  value: unknown,
  readOnly: boolean,
): ContainerInit {
  return {
    type: 'attesta:init',
    protocol: CONTAINER_PROTOCOL_VERSION,
    answerType,
    content,
    value: value === undefined ? null : value,
    readOnly,
  };
}

export const clampHeight = (height: number) =>
  Math.round(Math.min(CONTAINER_HEIGHT.max, Math.max(CONTAINER_HEIGHT.min, height)));

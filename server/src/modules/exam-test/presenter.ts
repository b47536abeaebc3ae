import { createHash } from 'node:crypto';
import {
  TASK_SCHEMAS,
  type CompositePart,
  type ExamWorkState,
  type PauseAllowance,
  type ParticipantTask,
  type ParticipantVariant,
  type SavedAnswer,
  type TaskAnswerType,
} from '@attesta/contract';
import type { z } from 'zod';
import type { resolvedTaskSchema } from '@attesta/contract';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { effectiveDeadline, isPaused, secondsLeft } from '../../lib/work-clock.js';
import type { WorkRow } from './exam-work.repo.js';

/*
 * Everything a participant sees of a work or a variant is built here, field by field from an
 * allowlist: a column added to `tasks` later (or a secret hidden inside `content`) cannot leak by
 * accident. Reference answers, scoring rules, solutions and criteria appear only in
 * `toResolvedVariant`, which the service calls after publication.
 */

const iso = (d: Date) => d.toISOString();

type Status = ExamWorkState['status'];
type FinishReason = NonNullable<ExamWorkState['finishReason']>;

/** The status as of `now`: an own pause past its end shows as running before the row is settled. */
const statusAt = (w: WorkRow, now: Date): Status =>
  w.status === 'paused' && !isPaused(w, now) ? 'in_progress' : (w.status as Status);

export function toWorkState(w: WorkRow, now: Date, saved?: SavedAnswer[]): ExamWorkState {
  const finished = w.finishedAt !== null;
  const paused = isPaused(w, now);
  return {
    id: w.id,
    participantTestId: w.participantTestId,
    variantId: w.variantId,
    status: statusAt(w, now),
    answerMode: w.answerMode === 'blank' ? 'blank' : 'online',
    startedAt: iso(w.startedAt),
    timeLimitSeconds: w.timeLimitSeconds,
    extraSeconds: w.extraSeconds,
    pausedSeconds: w.pausedSeconds,
    pausedAt: paused && w.pausedAt ? iso(w.pausedAt) : null,
    deadlineAt: iso(finished ? w.deadlineAt : effectiveDeadline(w, now)),
    secondsLeft: finished ? 0 : secondsLeft(w, now),
    finishedAt: w.finishedAt ? iso(w.finishedAt) : null,
    finishReason: (w.finishReason as FinishReason | null) ?? null,
    flags: w.flags ?? [],
    serverTime: iso(now),
    ...(saved ? { answers: saved } : {}),
  };
}

export function toSavedAnswers(
  rows: { variantTaskId: number; value: unknown; seq: number; savedAt: Date; answerMode: string }[],
  attached: { variantTaskId: number; fileId: number }[],
): SavedAnswer[] {
  const filesByTask = new Map<number, number[]>();
  for (const a of attached)
    filesByTask.set(a.variantTaskId, [...(filesByTask.get(a.variantTaskId) ?? []), a.fileId]);
  return rows.map((r) => ({
    variantTaskId: r.variantTaskId,
    value: r.value,
    seq: r.seq,
    savedAt: iso(r.savedAt),
    answerMode: r.answerMode === 'blank' ? 'blank' : 'online',
    ...(filesByTask.has(r.variantTaskId) ? { fileIds: filesByTask.get(r.variantTaskId)! } : {}),
  }));
}

export function toTimeLeft(w: WorkRow, now: Date) {
  const state = toWorkState(w, now);
  return {
    examWorkId: w.id,
    secondsLeft: state.secondsLeft,
    deadlineAt: state.deadlineAt,
    status: state.status,
    paused: isPaused(w, now),
    serverTime: state.serverTime,
  };
}

export function toPauseState(
  w: WorkRow,
  now: Date,
  pause: { reason: string | null; byStaff: boolean; restBreak?: boolean } | null,
  allowance: PauseAllowance | null = null,
  restBreakSecondsLeft: number | null = null,
) {
  const paused = isPaused(w, now);
  return {
    examWorkId: w.id,
    paused,
    pausedAt: paused && w.pausedAt ? iso(w.pausedAt) : null,
    pausedUntil: paused && w.pausedUntil ? iso(w.pausedUntil) : null,
    reason: paused ? (pause?.reason ?? null) : null,
    byStaff: paused ? (pause?.byStaff ?? false) : false,
    secondsLeft: w.finishedAt ? 0 : secondsLeft(w, now),
    allowance,
    restBreak: paused ? (pause?.restBreak ?? false) : false,
    restBreakSecondsLeft,
    serverTime: iso(now),
  };
}

// ------------------------------------------------------------------ variants

export interface TaskRow {
  variantTaskId: number;
  position: number;
  maxScore: number;
  taskId: number;
  answerType: string;
  html: string;
  content: Record<string, unknown>;
  reference: unknown;
  solutionHtml: string | null;
  criteria: { code: string; text: string; maxScore: number }[] | null;
  htmlContainerId: number | null;
}

export interface VariantHead {
  id: number;
  number: number;
  subjectTestId: number;
  subjectTestName: string;
  instructionHtml: string | null;
}

export type FileRow = { id: number; name: string; mime: string; ownerId: number | null };

/** What a presentation depended on: `seeded` once a task's options were shuffled by the seed. */
export interface Presentation {
  seeded: boolean;
}

/**
 * A participant's variant. `shuffleSeed` (the exam work id) orders shuffled options the same way
 * on every reload of that work and differently for other works; ids never change, so answers
 * saved under one order stay valid. `presentation.seeded` tells whether the seed changed anything.
 */
export function toParticipantVariant(
  head: VariantHead,
  rows: TaskRow[],
  taskFiles: FileRow[],
  shuffleSeed: number | null,
  onBadContent: (taskId: number) => void = () => undefined,
  presentation: Presentation = { seeded: false },
): ParticipantVariant {
  return {
    id: head.id,
    number: head.number,
    subjectTestId: head.subjectTestId,
    subjectTestName: head.subjectTestName,
    instructionHtml: head.instructionHtml === null ? null : sanitizeHtml(head.instructionHtml),
    tasks: rows.map((r) => toParticipantTask(r, taskFiles, shuffleSeed, onBadContent, presentation)),
  };
}

function toParticipantTask(
  r: TaskRow,
  taskFiles: FileRow[],
  shuffleSeed: number | null,
  onBadContent: (taskId: number) => void,
  presentation: Presentation,
): ParticipantTask {
  const answerType = r.answerType as TaskAnswerType;
  return {
    variantTaskId: r.variantTaskId,
    position: r.position,
    answerType,
    html: sanitizeHtml(r.html),
    content: participantContent(
      answerType,
      r.content,
      shuffleSeed === null ? null : `${shuffleSeed}:${r.taskId}`,
      () => onBadContent(r.taskId),
      presentation,
    ),
    maxScore: Number(r.maxScore),
    files: taskFiles
      .filter((f) => f.ownerId === r.taskId)
      .map((f) => ({ id: f.id, name: f.name, mime: f.mime })),
    htmlContainerId: r.htmlContainerId,
  };
}

/**
 * Content through its own schema: zod objects drop unknown keys, so only the documented
 * participant fields survive (a composite part's content goes through its own type's schema too).
 * Option, item, word and span html is sanitized like the task text.
 */
function participantContent(
  type: TaskAnswerType,
  raw: Record<string, unknown>,
  seed: string | null,
  onBad: () => void,
  presentation: Presentation,
): Record<string, unknown> {
  const schema = TASK_SCHEMAS[type]?.content;
  const parsed = schema?.safeParse(raw);
  if (!parsed?.success) {
    onBad();
    return {};
  }
  return publicContent(type, parsed.data as Record<string, unknown>, seed, presentation);
}

/** Labelled lists whose html a participant sees: choice options, items, matching sides, words, spans. */
const LABELLED_LISTS = ['options', 'items', 'left', 'right', 'words', 'choices'] as const;

function publicContent(
  type: string,
  parsed: Record<string, unknown>,
  seed: string | null,
  presentation: Presentation,
) {
  const content = { ...parsed };
  for (const key of LABELLED_LISTS) {
    const list = content[key] as { id: string; html: string }[] | undefined;
    if (!Array.isArray(list)) continue;
    const clean = list.map((o) => ({ ...o, html: sanitizeHtml(o.html) }));
    const shuffle = content.shuffle === true && seed !== null;
    if (shuffle) presentation.seeded = true;
    content[key] = shuffle ? shuffled(clean, `${seed}:${key}`) : clean;
  }
  // Where one sets points, the areas are where points score: as good as the key, so none is shown.
  if (type === 'hotspot' && content.select === 'points') content.areas = [];
  if (type === 'composite') {
    content.parts = (content.parts as CompositePart[]).map((part) => ({
      id: part.id,
      answerType: part.answerType,
      content: publicContent(
        part.answerType,
        part.content as Record<string, unknown>,
        seed === null ? null : `${seed}:${part.id}`,
        presentation,
      ),
    }));
  }
  return content;
}

/** Fisher–Yates driven by a hash chain of the seed: deterministic, no shared random state. */
export function shuffled<T>(list: readonly T[], seed: string): T[] {
  const out = [...list];
  let state = createHash('sha256').update(seed).digest();
  let offset = 0;
  const next = () => {
    if (offset + 4 > state.length) {
      state = createHash('sha256').update(state).digest();
      offset = 0;
    }
    const n = state.readUInt32BE(offset);
    offset += 4;
    return n;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type ResolvedTask = z.infer<typeof resolvedTaskSchema>;

/** The variant with its key and solutions: only after publication (participant) or for admins. */
export function toResolvedVariant(
  head: VariantHead,
  rows: TaskRow[],
  taskFiles: FileRow[],
): ParticipantVariant & { tasks: ResolvedTask[] } {
  const base = toParticipantVariant(head, rows, taskFiles, null);
  return {
    ...base,
    tasks: base.tasks.map((t, i) => {
      const r = rows[i]!;
      return {
        ...t,
        reference: r.reference ?? null,
        solutionHtml: r.solutionHtml === null ? null : sanitizeHtml(r.solutionHtml),
        criteria: r.criteria?.map((c) => ({ code: c.code, text: c.text, maxScore: c.maxScore })) ?? null,
      };
    }),
  };
}

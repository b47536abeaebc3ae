/** Picks the input for a task's answer type; content is parsed with the contract's schema. */
import { TASK_SCHEMAS, type AnswerValue, type TaskAnswerType } from '@attesta/contract';
import { Alert } from '../lite/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { emptyValue } from './answer-value';
import { AssociateInput } from './associate-input';
import { MultipleChoiceInput, SingleChoiceInput } from './choice-inputs';
import { ClozeInput } from './cloze-input';
import { CompositeInput, type PartRenderer } from './composite-input';
import { FileAnswerInput, type FileUploader, type UploadedFile, type WaitingFile } from './file-input';
import { GapMatchInput } from './gap-match-input';
import { HotspotInput } from './hotspot-input';
import { HottextInput } from './hottext-input';
import { MatchingInput } from './matching-input';
import { OrderingInput } from './ordering-input';
import { DigitSequenceInput, ExtendedTextInput, NumberAnswerInput, ShortTextInput } from './text-inputs';

export interface AnswerInputTask {
  answerType: TaskAnswerType;
  html: string;
  content: Record<string, unknown>;
}

export interface AnswerInputProps {
  task: AnswerInputTask;
  value: unknown;
  onChange: (value: unknown) => void;
  onCommit?: () => void;
  disabled?: boolean;
  labelledBy?: string;
  upload?: FileUploader;
  knownFiles?: Record<number, UploadedFile>;
  /** Attachments chosen while offline that wait in the file outbox. */
  waitingFiles?: WaitingFile[];
}

/** Types whose input shows the task html itself, with its `{{id}}` places filled in. */
const OWN_HTML_TYPES: readonly string[] = ['cloze', 'gap_match', 'hottext', 'composite'];
export const showsOwnHtml = (type: string): boolean => OWN_HTML_TYPES.includes(type);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Task files the input itself shows (a hotspot picture), so the task does not list them again. */
export function ownImageFileIds(type: string, content: unknown): number[] {
  if (!isRecord(content)) return [];
  if (type === 'hotspot' && isRecord(content.image) && typeof content.image.fileId === 'number')
    return [content.image.fileId];
  if (type === 'composite' && Array.isArray(content.parts))
    return content.parts.flatMap((p) =>
      isRecord(p) ? ownImageFileIds(String(p.answerType), p.content) : [],
    );
  return [];
}

/*
 * Where points are set on a picture, the server serves no areas (they are where points score, as
 * good as the key); the schema wants at least one, so a stand-in goes in for the parse and out again.
 */
const STAND_IN = '__hidden__';
function withStandIn(type: string, raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  if (type === 'hotspot' && raw.select === 'points' && (!Array.isArray(raw.areas) || raw.areas.length === 0))
    return { ...raw, areas: [{ id: STAND_IN, shape: 'rect', coords: [0, 0, 0, 0] }] };
  if (type === 'composite' && Array.isArray(raw.parts))
    return {
      ...raw,
      parts: raw.parts.map((p) =>
        isRecord(p) ? { ...p, content: withStandIn(String(p.answerType), p.content) } : p,
      ),
    };
  return raw;
}
function withoutStandIn(type: string, parsed: Record<string, unknown>): Record<string, unknown> {
  if (type === 'hotspot' && Array.isArray(parsed.areas))
    return { ...parsed, areas: parsed.areas.filter((a: { id: string }) => a.id !== STAND_IN) };
  if (type === 'composite' && Array.isArray(parsed.parts))
    return {
      ...parsed,
      parts: parsed.parts.map((p: { answerType: string; content: Record<string, unknown> }) => ({
        ...p,
        content: withoutStandIn(p.answerType, p.content),
      })),
    };
  return parsed;
}

/** The content of a task as the input reads it: the contract's schema, or null when it does not fit. */
export function parseTaskContent(type: TaskAnswerType, raw: unknown): Record<string, unknown> | null {
  const parsed = TASK_SCHEMAS[type].content.safeParse(withStandIn(type, raw));
  return parsed.success ? withoutStandIn(type, parsed.data as Record<string, unknown>) : null;
}

/** A stored value of the wrong shape (an edited task, an old client) shows as "no answer yet". */
function valueFor(type: TaskAnswerType, value: unknown): unknown {
  if (value === undefined || value === null) return emptyValue(type);
  const parsed = TASK_SCHEMAS[type].value.safeParse(value);
  return parsed.success ? parsed.data : emptyValue(type);
}

export function AnswerInput({
  task,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
  upload,
  knownFiles,
  waitingFiles,
}: AnswerInputProps) {
  const { t } = useTranslation();
  const type = task.answerType;
  const content = useMemo(() => parseTaskContent(type, task.content), [type, task.content]);
  if (!content) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('answers.badTask')}
      </Alert>
    );
  }
  const common = { value: valueFor(type, value), onChange, onCommit, disabled, labelledBy };
  // Each branch narrows content and value to its type; the schemas above guarantee the shapes.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const c = content as any;
  const v = common.value as any;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  const emit = onChange as (next: AnswerValue<TaskAnswerType>) => void;
  switch (type) {
    case 'single_choice':
      return <SingleChoiceInput {...common} content={c} value={v} onChange={emit} />;
    case 'multiple_choice':
      return <MultipleChoiceInput {...common} content={c} value={v} onChange={emit} />;
    case 'short_text':
      return <ShortTextInput {...common} content={c} value={v} onChange={emit} />;
    case 'number':
      return <NumberAnswerInput {...common} content={c} value={v} onChange={emit} />;
    case 'digit_sequence':
      return <DigitSequenceInput {...common} content={c} value={v} onChange={emit} />;
    case 'ordering':
      return <OrderingInput {...common} content={c} value={v} onChange={emit} />;
    case 'matching':
      return <MatchingInput {...common} content={c} value={v} onChange={emit} />;
    case 'cloze':
      return <ClozeInput {...common} content={c} value={v} onChange={emit} html={task.html} />;
    case 'gap_match':
      return <GapMatchInput {...common} content={c} value={v} onChange={emit} html={task.html} />;
    case 'associate':
      return <AssociateInput {...common} content={c} value={v} onChange={emit} />;
    case 'hottext':
      return <HottextInput {...common} content={c} value={v} onChange={emit} html={task.html} />;
    case 'hotspot':
      return <HotspotInput {...common} content={c} value={v} onChange={emit} />;
    case 'composite': {
      const renderPart: PartRenderer = (part, partValue, change, partLabel) => (
        <AnswerInput
          task={{ answerType: part.answerType, html: '', content: part.content as Record<string, unknown> }}
          value={partValue}
          onChange={change}
          onCommit={onCommit}
          disabled={disabled}
          labelledBy={partLabel}
        />
      );
      return (
        <CompositeInput
          {...common}
          content={c}
          value={v}
          onChange={emit}
          html={task.html}
          renderPart={renderPart}
        />
      );
    }
    case 'extended_text':
      return <ExtendedTextInput {...common} content={c} value={v} onChange={emit} />;
    case 'file':
      return (
        <FileAnswerInput
          {...common}
          content={c}
          value={v}
          onChange={emit}
          upload={upload ?? (() => Promise.reject(new Error('no uploader')))}
          knownFiles={knownFiles ?? {}}
          waitingFiles={waitingFiles ?? []}
        />
      );
  }
}

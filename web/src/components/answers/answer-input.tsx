/** Picks the input for a task's answer type; content is parsed with the contract's schema. */
import { TASK_SCHEMAS, type AnswerType, type AnswerValue } from '@attesta/contract';
import { Alert } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { emptyValue } from './answer-value';
import { MultipleChoiceInput, SingleChoiceInput } from './choice-inputs';
import { ClozeInput } from './cloze-input';
import { FileAnswerInput, type FileUploader, type UploadedFile, type WaitingFile } from './file-input';
import { MatchingInput } from './matching-input';
import { OrderingInput } from './ordering-input';
import { DigitSequenceInput, ExtendedTextInput, NumberAnswerInput, ShortTextInput } from './text-inputs';

export interface AnswerInputTask {
  answerType: AnswerType;
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

/** A stored value of the wrong shape (an edited task, an old client) shows as "no answer yet". */
function valueFor(type: AnswerType, value: unknown): unknown {
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
  const content = useMemo(() => TASK_SCHEMAS[type].content.safeParse(task.content), [type, task.content]);
  if (!content.success) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('answers.badTask')}
      </Alert>
    );
  }
  const common = { value: valueFor(type, value), onChange, onCommit, disabled, labelledBy };
  // Each branch narrows content and value to its type; the schemas above guarantee the shapes.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const c = content.data as any;
  const v = common.value as any;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  const emit = onChange as (next: AnswerValue) => void;
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

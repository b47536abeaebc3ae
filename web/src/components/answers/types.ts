import type { AnswerValue, TaskAnswerType, TaskContent } from '@attesta/contract';

/** Props every answer input takes: the parsed content, the value, and where changes go. */
export interface AnswerInputProps<T extends TaskAnswerType> {
  content: TaskContent<T>;
  value: AnswerValue<T>;
  onChange: (value: AnswerValue<T>) => void;
  /** The participant left the field: save now instead of after the debounce. */
  onCommit?: () => void;
  disabled?: boolean;
  /** Id of the element that labels the answer (the task heading). */
  labelledBy?: string;
}

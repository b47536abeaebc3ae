/**
 * An answer type in words (ru, en), for every screen that names a task's type outside the task
 * editor: the stored value (`digit_sequence`) is never shown.
 */
import { TASK_ANSWER_TYPES } from '@attesta/contract';
import { useBundleT, type Bundle } from '../data-table/use-bundle-t';

const ru = {
  answerTypeLabels: {
    single_choice: 'Выбор одного ответа',
    multiple_choice: 'Выбор нескольких ответов',
    short_text: 'Краткий ответ',
    number: 'Число',
    digit_sequence: 'Последовательность цифр',
    ordering: 'Упорядочивание',
    matching: 'Установление соответствия',
    cloze: 'Заполнение пропусков',
    extended_text: 'Развёрнутый ответ',
    file: 'Ответ файлом',
    gap_match: 'Перетаскивание слов в пропуски',
    associate: 'Составление пар',
    hottext: 'Выбор фрагментов текста',
    hotspot: 'Выбор области на рисунке',
    composite: 'Составное задание',
    other: 'Другой тип ответа',
  },
};

const en: typeof ru = {
  answerTypeLabels: {
    single_choice: 'Single choice',
    multiple_choice: 'Multiple choice',
    short_text: 'Short answer',
    number: 'Number',
    digit_sequence: 'Digit sequence',
    ordering: 'Ordering',
    matching: 'Matching',
    cloze: 'Fill in the gaps',
    extended_text: 'Extended answer',
    file: 'File answer',
    gap_match: 'Drag words into gaps',
    associate: 'Make pairs',
    hottext: 'Select text fragments',
    hotspot: 'Select an area of a picture',
    composite: 'Composite task',
    other: 'Another answer type',
  },
};

export const answerTypeBundle: Bundle = { ru, en };

/** `(type) => words`; a type this build does not know reads «Другой тип ответа». */
export function useAnswerTypeLabel() {
  const { t } = useBundleT(answerTypeBundle);
  return (type: string) =>
    t(`answerTypeLabels.${(TASK_ANSWER_TYPES as readonly string[]).includes(type) ? type : 'other'}`);
}

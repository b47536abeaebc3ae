/** Words for the codes the content calls answer with: answer types, exam kinds, statuses, grades. */
import { SUBJECT_EXAM_KINDS, TASK_ANSWER_TYPES } from '@attesta/contract';
import { useMemo } from 'react';
import { useAnswerTypeLabel } from '../../../components/answers/answer-type-labels';
import { useContentT, type ContentKey } from '../locales';

const inList = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

export const PARALLELS = Array.from({ length: 12 }, (_, n) => n);

export function useLabels() {
  const t = useContentT();
  const answerTypeLabel = useAnswerTypeLabel();
  return useMemo(
    () => ({
      answerType: (type: string | null | undefined) => answerTypeLabel(type ?? 'other'),
      answerTypeOptions: TASK_ANSWER_TYPES.map((type) => ({ value: type, label: answerTypeLabel(type) })),
      examKind: (kind: string) =>
        inList(SUBJECT_EXAM_KINDS, kind) ? t(`kinds.${kind}` as ContentKey) : t('kinds.other', { kind }),
      examKindOptions: SUBJECT_EXAM_KINDS.map((kind) => ({
        value: kind,
        label: t(`kinds.${kind}` as ContentKey),
      })),
      status: (status: string) => (status === 'published' ? t('statuses.published') : t('statuses.draft')),
      parallel: (n: number) => (n === 0 ? t('parallels.preschool') : t('parallels.grade', { n })),
      parallelOptions: PARALLELS.map((n) => ({
        value: String(n),
        label: n === 0 ? t('parallels.preschool') : t('parallels.grade', { n }),
      })),
    }),
    [t, answerTypeLabel],
  );
}

export type Labels = ReturnType<typeof useLabels>;

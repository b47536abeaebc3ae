/**
 * How each task is answered: online, or on a paper blank (when the test allows it). Starts from
 * the work's answers; a change goes to the server and shows once it accepted it. And which tasks
 * count as answered.
 */
import type { AnswerMode, ExamWorkState, ParticipantTask } from '@attesta/contract';
import { notifications } from '../../../components/lite/notify';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAnswered } from '../../../components/answers/answer-value';
import { describeApiError } from '../../../lib/form-errors';
import type { ExamApi } from '../api/exam-api';

export function useTaskModes(api: ExamApi, work: Pick<ExamWorkState, 'id' | 'answers'>) {
  const { t } = useTranslation();
  const [modes, setModes] = useState<Record<number, AnswerMode>>(() =>
    Object.fromEntries((work.answers ?? []).map((a) => [a.variantTaskId, a.answerMode])),
  );

  const setMode = async (variantTaskId: number, mode: AnswerMode) => {
    try {
      const result = await api.setTaskMode(work.id, variantTaskId, mode);
      setModes((prev) => ({ ...prev, [variantTaskId]: result.answerMode }));
    } catch (error) {
      notifications.show({
        color: 'red',
        message: t('runner.mode.failed', { message: describeApiError(error, t) }),
      });
    }
  };

  return { modes, setMode };
}

/** The tasks that count as answered: a value given, or to be answered on a paper blank. */
export function useAnsweredTasks(
  tasks: readonly ParticipantTask[],
  values: Record<number, unknown>,
  modes: Record<number, AnswerMode>,
) {
  return useMemo(
    () =>
      new Set(
        tasks
          .filter(
            (x) => isAnswered(x.answerType, values[x.variantTaskId]) || modes[x.variantTaskId] === 'blank',
          )
          .map((x) => x.variantTaskId),
      ),
    [tasks, values, modes],
  );
}

/**
 * Switching a task's scoring method: the parts the new method reads get sensible starting values
 * (points per option, scored answers from the accepted ones), and what only the old one read goes.
 */
import { defaultScoring, isEditableType, type Labelled, type TaskDraft } from './draft';

type Patch = Partial<Pick<TaskDraft, 'reference' | 'scoring'>>;

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {};

const round = (x: number) => Math.round(x * 1e6) / 1e6;

export function withMethod(draft: TaskDraft, method: string): Patch {
  const max = draft.maxScore ?? 1;
  const base = asRecord(draft.scoring);
  const scoring: Record<string, unknown> = { ...base, method };
  const reference = asRecord(draft.reference);
  if (method !== 'per_choice') {
    delete scoring.map;
    delete scoring.lowerBound;
    delete scoring.upperBound;
  }
  switch (draft.answerType) {
    case 'single_choice':
    case 'multiple_choice': {
      if (method !== 'per_choice') return { scoring };
      const options = (draft.content.options as Labelled[] | undefined) ?? [];
      const correct =
        draft.answerType === 'single_choice' ? [reference.correct] : ((reference.correct as string[]) ?? []);
      const share = correct.length ? round(max / correct.length) : 0;
      scoring.map = Object.fromEntries(options.map((o) => [o.id, correct.includes(o.id) ? share : 0]));
      return { scoring };
    }
    case 'short_text': {
      if (method !== 'per_answer') {
        delete reference.answers;
        return { scoring, reference };
      }
      const accepted = ((reference.accepted as string[]) ?? []).filter((a) => a.trim());
      reference.answers = (accepted.length ? accepted : ['']).map((text) => ({ text, points: max }));
      return { scoring, reference };
    }
    case 'number': {
      if (method !== 'per_answer') {
        delete reference.answers;
        return { scoring, reference };
      }
      const { answers: _answers, ...key } = reference;
      reference.answers = [{ ...key, points: max }];
      return { scoring, reference };
    }
    case 'cloze': {
      if (method !== 'weighted') {
        delete reference.scored;
        return { scoring, reference };
      }
      const blanks = (draft.content.blanks as { id: string; kind: string }[] | undefined) ?? [];
      const accepted = asRecord(reference.blanks) as Record<string, string[]>;
      const each = blanks.length ? round(max / blanks.length) : 0;
      reference.scored = Object.fromEntries(
        blanks.map((b) => [
          b.id,
          (accepted[b.id]?.length ? accepted[b.id]! : ['']).map((text) =>
            b.kind === 'number'
              ? {
                  value: Number(text.replace(',', '.')),
                  tolerance: 0,
                  toleranceMode: 'absolute',
                  points: each,
                }
              : { text, points: each },
          ),
        ]),
      );
      return { scoring, reference };
    }
    default:
      return { scoring };
  }
}

/** A native rule in place of an imported one (QTI): the type's default method. */
export function nativeScoringOf(draft: TaskDraft): Record<string, unknown> | null {
  return isEditableType(draft.answerType) ? defaultScoring(draft.answerType) : null;
}

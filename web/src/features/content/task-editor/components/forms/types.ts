import type { TaskDraft } from '../../model/draft';
import type { Problems } from '../../model/fields';

/** What every answer-type form gets: the draft, a way to change it, the problems by field. */
export interface TypeFormProps {
  draft: TaskDraft;
  update: (patch: Partial<TaskDraft>) => void;
  problems: Problems;
  /** The scoring rule is imported (QTI) and not edited here: the forms hide their scoring fields. */
  importedScoring?: boolean;
}

export const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

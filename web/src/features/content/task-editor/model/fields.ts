/** The name of a field of the editor in words, for the list of problems (no ids, no JSON paths). */
import type { LooseT } from '../../../../components/data-table/use-bundle-t';
import type { TaskDraft } from './draft';
import type { Problem } from './validate';

const LIST_LABELS: Record<string, string> = {
  options: 'option',
  items: 'item',
  left: 'left',
  right: 'right',
  blanks: 'blank',
};

/** Position (1-based) of the element with this id in a content list, or null. */
function positionOf(draft: TaskDraft, list: string, id: string): number | null {
  const items = draft.content[list];
  if (!Array.isArray(items)) return null;
  const i = items.findIndex((x) => (x as { id?: unknown }).id === id);
  return i < 0 ? null : i + 1;
}

export function fieldLabel(path: string, draft: TaskDraft, t: LooseT): string {
  const [head, second, third] = path.split('.');
  switch (head) {
    case 'html':
      return t('taskEditor.fields.html');
    case 'solutionHtml':
      return t('taskEditor.fields.solution');
    case 'maxScore':
      return t('taskEditor.fields.maxScore');
    case 'title':
      return t('taskEditor.fields.title');
    case 'category':
      return t('taskEditor.fields.category');
    case 'criteria':
      return second !== undefined && /^\d+$/.test(second)
        ? t('taskEditor.fields.criterion', { n: Number(second) + 1 })
        : t('taskEditor.fields.criteria');
    case 'content': {
      const list = second ? LIST_LABELS[second] : undefined;
      if (list && third !== undefined && /^\d+$/.test(third))
        return t(`taskEditor.fields.${list}`, { n: Number(third) + 1 });
      if (list) return t(`taskEditor.fields.${second}`);
      if (second === 'minChoices' || second === 'maxChoices' || second === 'length')
        return t(`taskEditor.fields.${second}`);
      return t('taskEditor.fields.content');
    }
    case 'reference': {
      if ((second === 'blanks' || second === 'scored') && third) {
        const n = positionOf(draft, 'blanks', third);
        if (n) return t('taskEditor.fields.blank', { n });
      }
      if (second === 'pairs' && third) {
        const n = positionOf(draft, 'left', third);
        if (n) return t('taskEditor.fields.left', { n });
      }
      if (second === 'correct') return t('taskEditor.fields.correct');
      if (second === 'order') return t('taskEditor.fields.order');
      if (second === 'digits') return t('taskEditor.fields.digits');
      if (second === 'answers' && third !== undefined)
        return t('taskEditor.fields.scoredAnswer', { n: Number(third) + 1 });
      if (second === 'accepted' && third !== undefined)
        return t('taskEditor.fields.acceptedAnswer', { n: Number(third) + 1 });
      return t('taskEditor.fields.reference');
    }
    case 'scoring':
      if (second === 'map' && third) {
        const n = positionOf(draft, 'options', third);
        if (n) return t('taskEditor.fields.optionPoints', { n });
      }
      if (second === 'lowerBound' || second === 'upperBound') return t(`taskEditor.fields.${second}`);
      return t('taskEditor.fields.scoring');
    default:
      return t('taskEditor.fields.task');
  }
}

/** Problems of the draft by field, for the forms: `at` the field itself, `under` it and below. */
export interface Problems {
  list: Problem[];
  at: (path: string) => string | undefined;
  under: (prefix: string) => Problem[];
}

export function problemsOf(list: Problem[]): Problems {
  return {
    list,
    at: (path) => list.find((p) => p.path === path)?.message,
    under: (prefix) => list.filter((p) => p.path === prefix || p.path.startsWith(`${prefix}.`)),
  };
}

export const noProblems: Problems = problemsOf([]);

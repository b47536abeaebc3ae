/**
 * The form of the task's answer type: its content, its key and its scoring rule. A type that came
 * with an import and has no form here keeps its parts as they are (its text, max score, solution
 * and classifiers stay editable); an imported scoring rule is shown in words, read-only.
 */
import { Alert, Stack } from '@mantine/core';
import { isEditableType, isImportedScoring } from '../model/draft';
import { nativeScoringOf } from '../model/methods';
import { useTaskEditorT } from '../locales';
import { ChoiceForm } from './forms/choice-form';
import { ClozeForm } from './forms/cloze-form';
import { ImportedScoring } from './forms/imported-scoring';
import { ManualForm } from './forms/manual-forms';
import { MatchingForm, OrderingForm } from './forms/order-match-forms';
import { DigitSequenceForm, NumberForm, ShortTextForm } from './forms/text-forms';
import type { TypeFormProps } from './forms/types';

interface AnswerFormProps extends Omit<TypeFormProps, 'importedScoring'> {
  insertMark: (id: string) => void;
}

export function AnswerForm(props: AnswerFormProps) {
  const { t } = useTaskEditorT();
  const { draft, update } = props;
  const imported = isImportedScoring(draft.scoring);
  const common = { ...props, importedScoring: imported };
  const native = nativeScoringOf(draft);
  const form = (() => {
    switch (draft.answerType) {
      case 'single_choice':
      case 'multiple_choice':
        return <ChoiceForm {...common} />;
      case 'short_text':
        return <ShortTextForm {...common} />;
      case 'number':
        return <NumberForm {...common} />;
      case 'digit_sequence':
        return <DigitSequenceForm {...common} />;
      case 'ordering':
        return <OrderingForm {...common} />;
      case 'matching':
        return <MatchingForm {...common} />;
      case 'cloze':
        return <ClozeForm {...common} insertMark={props.insertMark} />;
      case 'extended_text':
      case 'file':
        return <ManualForm {...common} />;
      default:
        return null;
    }
  })();
  return (
    <Stack gap="md">
      {isEditableType(draft.answerType) ? (
        form
      ) : (
        <Alert color="gray" variant="light" data-testid="imported-parts">
          {t('taskEditor.importedParts')}
        </Alert>
      )}
      {imported && (
        <ImportedScoring
          scoring={draft.scoring}
          onReplace={native ? () => update({ scoring: native }) : undefined}
        />
      )}
    </Stack>
  );
}

/** Insert or edit a formula: TeX (rendered with KaTeX) or MathML, with a live preview. */
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTaskEditorT } from '../locales';
import {
  normaliseMathml,
  renderFormula,
  texProblem,
  type FormulaAttrs,
  type FormulaKind,
} from '../tiptap/formula';

interface FormulaDialogProps {
  initial: FormulaAttrs | null;
  onSave: (attrs: FormulaAttrs) => void;
  onClose: () => void;
}

export function FormulaDialog({ initial, onSave, onClose }: FormulaDialogProps) {
  const { t } = useTaskEditorT();
  const [kind, setKind] = useState<FormulaKind>(initial?.kind ?? 'tex');
  const [source, setSource] = useState(initial?.source ?? '');
  const [display, setDisplay] = useState(initial?.display ?? false);

  const mathml = kind === 'mathml' ? normaliseMathml(source) : null;
  const problem = !source.trim()
    ? null
    : kind === 'tex'
      ? texProblem(source)
        ? t('taskEditor.formula.texProblem')
        : null
      : mathml
        ? null
        : t('taskEditor.formula.mathmlProblem');
  const preview = useMemo(
    () =>
      !source.trim() || problem
        ? ''
        : renderFormula({ kind, source: kind === 'mathml' ? (mathml ?? '') : source, display }),
    [kind, source, display, problem, mathml],
  );

  const save = () => {
    if (!source.trim() || problem) return;
    onSave({ kind, source: kind === 'mathml' ? (mathml ?? source) : source.trim(), display });
  };

  return (
    <Modal opened onClose={onClose} title={t('taskEditor.formula.title')} size="lg">
      <Stack>
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as FormulaKind)}
          data={[
            { value: 'tex', label: t('taskEditor.formula.tex') },
            { value: 'mathml', label: t('taskEditor.formula.mathml') },
          ]}
          aria-label={t('taskEditor.formula.kind')}
        />
        <Textarea
          label={kind === 'tex' ? t('taskEditor.formula.texLabel') : t('taskEditor.formula.mathmlLabel')}
          description={kind === 'tex' ? t('taskEditor.formula.texHint') : t('taskEditor.formula.mathmlHint')}
          value={source}
          onChange={(e) => setSource(e.currentTarget.value)}
          autosize
          minRows={3}
          styles={{ input: { fontFamily: 'monospace' } }}
          error={problem ?? undefined}
          data-autofocus
          data-testid="formula-source"
        />
        {kind === 'tex' && (
          <Checkbox
            label={t('taskEditor.formula.display')}
            checked={display}
            onChange={(e) => setDisplay(e.currentTarget.checked)}
          />
        )}
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('taskEditor.formula.preview')}
          </Text>
          <Paper withBorder p="sm" mih={48} data-testid="formula-preview" aria-live="polite">
            {preview ? (
              <div className="rich-html" dangerouslySetInnerHTML={{ __html: preview }} />
            ) : (
              <Text size="sm" c="dimmed">
                {t('taskEditor.formula.empty')}
              </Text>
            )}
          </Paper>
        </div>
        {problem && (
          <Alert color="orange" variant="light">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('taskEditor.cancel')}
          </Button>
          <Button onClick={save} disabled={!source.trim() || !!problem} data-testid="formula-save">
            {initial ? t('taskEditor.formula.update') : t('taskEditor.formula.insert')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

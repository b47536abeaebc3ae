/** The scoring method of a type in words, each with a one-line explanation, and the text rules. */
import { Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import { isEditableType, NATIVE_METHODS, type TaskDraft } from '../../model/draft';
import type { Problems } from '../../model/fields';
import { useTaskEditorT } from '../../locales';

interface MethodFieldProps {
  draft: TaskDraft;
  onMethod: (method: string) => void;
  problems: Problems;
}

/** The methods the type has; the explanation names what one mistake costs. */
export function MethodField({ draft, onMethod, problems }: MethodFieldProps) {
  const { t } = useTaskEditorT();
  const methods = isEditableType(draft.answerType) ? NATIVE_METHODS[draft.answerType] : [];
  const method = String(draft.scoring.method ?? methods[0] ?? '');
  if (methods.length === 1) {
    return (
      <Stack gap={2}>
        <Text fw={500} size="sm">
          {t('taskEditor.scoring.method')}
        </Text>
        <Text size="sm">{t(`taskEditor.methods.${method}.name`)}</Text>
        <Text size="xs" c="dimmed">
          {t(`taskEditor.methods.${method}.hint`)}
        </Text>
      </Stack>
    );
  }
  return (
    <Radio.Group
      label={t('taskEditor.scoring.method')}
      value={method}
      onChange={onMethod}
      error={problems.at('scoring.method')}
      data-testid="scoring-method"
    >
      <Stack gap="xs" mt="xs">
        {methods.map((m) => (
          <Radio
            key={m}
            value={m}
            label={t(`taskEditor.methods.${m}.name`)}
            description={t(`taskEditor.methods.${m}.hint`)}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}

interface TextRulesProps {
  scoring: Record<string, unknown>;
  onChange: (scoring: Record<string, unknown>) => void;
}

/** How typed text is compared: letter case, ё and е, wildcards. */
export function TextRules({ scoring, onChange }: TextRulesProps) {
  const { t } = useTaskEditorT();
  const flag = (key: 'caseSensitive' | 'distinguishYo' | 'wildcards', label: string, hint: string) => (
    <Checkbox
      label={label}
      description={hint}
      checked={scoring[key] === true}
      onChange={(e) => onChange({ ...scoring, [key]: e.currentTarget.checked })}
    />
  );
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        {t('taskEditor.scoring.textRules')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('taskEditor.scoring.textRulesHint')}
      </Text>
      <Group align="flex-start" gap="lg">
        {flag(
          'caseSensitive',
          t('taskEditor.scoring.caseSensitive'),
          t('taskEditor.scoring.caseSensitiveHint'),
        )}
        {flag(
          'distinguishYo',
          t('taskEditor.scoring.distinguishYo'),
          t('taskEditor.scoring.distinguishYoHint'),
        )}
        {flag('wildcards', t('taskEditor.scoring.wildcards'), t('taskEditor.scoring.wildcardsHint'))}
      </Group>
    </Stack>
  );
}

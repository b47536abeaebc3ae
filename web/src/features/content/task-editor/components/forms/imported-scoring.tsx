/**
 * A scoring rule imported as data (a QTI item's response processing, a composite sum) is shown in
 * words and kept as it is; the author may replace it by a native method of the type.
 */
import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTaskEditorT } from '../../locales';

interface ImportedScoringProps {
  scoring: Record<string, unknown>;
  /** Absent when the type has no native method to replace it with here. */
  onReplace?: () => void;
}

export function ImportedScoring({ scoring, onReplace }: ImportedScoringProps) {
  const { t } = useTaskEditorT();
  const [confirming, setConfirming] = useState(false);
  const qti = scoring.method === 'qti';
  const template = typeof scoring.template === 'string' ? scoring.template : null;
  const rules = Array.isArray(scoring.rules) ? scoring.rules.length : 0;
  const responses = Array.isArray(scoring.responses) ? scoring.responses.length : 0;
  return (
    <Stack gap="xs" data-testid="imported-scoring">
      <Alert
        color="gray"
        variant="light"
        title={qti ? t('taskEditor.qti.title') : t('taskEditor.qti.sumTitle')}
      >
        <Stack gap={6}>
          <Text size="sm">{qti ? t('taskEditor.qti.readOnly') : t('taskEditor.qti.sumReadOnly')}</Text>
          {qti && (
            <List size="sm">
              <List.Item>
                {template
                  ? t('taskEditor.qti.template', { name: t(`taskEditor.qti.templates.${template}`) })
                  : t('taskEditor.qti.rules', { count: rules })}
              </List.Item>
              <List.Item>{t('taskEditor.qti.responses', { count: responses })}</List.Item>
            </List>
          )}
        </Stack>
      </Alert>
      {onReplace && (
        <Group>
          <Button
            variant="light"
            color="orange"
            onClick={() => setConfirming(true)}
            data-testid="replace-scoring"
          >
            {t('taskEditor.qti.replace')}
          </Button>
        </Group>
      )}
      {confirming && onReplace && (
        <Modal opened onClose={() => setConfirming(false)} title={t('taskEditor.qti.replace')}>
          <Stack>
            <Text size="sm">{t('taskEditor.qti.replaceConfirm')}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                {t('taskEditor.cancel')}
              </Button>
              <Button
                color="orange"
                onClick={() => {
                  setConfirming(false);
                  onReplace();
                }}
                data-testid="replace-scoring-confirm"
              >
                {t('taskEditor.qti.replaceYes')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}

import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Radio,
  Stack,
  Textarea,
  Title,
} from '../../../components/lite/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/form-errors';
import type { ExamApi, QuizAnswers } from '../api/exam-api';

/** The questionnaire attached to the participant test (GET/PUT …QuizCurrentParticipantTest). */
export function QuizForm({ api, onSaved }: { api: ExamApi; onSaved: () => void }) {
  const { t } = useTranslation();
  const quiz = useQuery({ queryKey: ['exam', 'quiz'], queryFn: ({ signal }) => api.quiz(signal) });
  const [answers, setAnswers] = useState<QuizAnswers | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!quiz.data?.quiz) return null;
  const current = answers ?? quiz.data.answers ?? {};
  const set = (id: string, value: string | string[]) => setAnswers({ ...current, [id]: value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing = quiz.data.quiz!.questions.some((q) => {
      const a = current[q.id];
      return q.required && (a === undefined || a.length === 0);
    });
    if (missing) return setProblem(t('start.quiz.required'));
    setBusy(true);
    setProblem(null);
    try {
      await api.saveQuiz(current);
      onSaved();
    } catch (error) {
      setProblem(describeApiError(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="lg" component="form" onSubmit={submit} noValidate data-testid="quiz">
      <Stack gap="md">
        <Title order={2} fz="lg">
          {quiz.data.quiz.name || t('start.quiz.title')}
        </Title>
        {quiz.data.quiz.questions.map((q) => {
          const value = current[q.id];
          if (q.kind === 'single')
            return (
              <Radio.Group
                key={q.id}
                label={q.text}
                withAsterisk={q.required}
                value={typeof value === 'string' ? value : ''}
                onChange={(v) => set(q.id, v)}
              >
                <Stack gap={6} mt={6}>
                  {(q.options ?? []).map((o) => (
                    <Radio key={o.id} value={o.id} label={o.text} />
                  ))}
                </Stack>
              </Radio.Group>
            );
          if (q.kind === 'multiple')
            return (
              <Checkbox.Group
                key={q.id}
                label={q.text}
                withAsterisk={q.required}
                value={Array.isArray(value) ? value : []}
                onChange={(v) => set(q.id, v)}
              >
                <Stack gap={6} mt={6}>
                  {(q.options ?? []).map((o) => (
                    <Checkbox key={o.id} value={o.id} label={o.text} />
                  ))}
                </Stack>
              </Checkbox.Group>
            );
          return (
            <Textarea
              key={q.id}
              label={q.text}
              withAsterisk={q.required}
              value={typeof value === 'string' ? value : ''}
              maxLength={2000}
              onChange={(e) => set(q.id, e.currentTarget.value)}
              rows={3}
            />
          );
        })}
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy} data-testid="save-quiz">
            {t('start.quiz.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

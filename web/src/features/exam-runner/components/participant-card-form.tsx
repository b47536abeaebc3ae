import { participantCardBodySchema } from '@attesta/contract';
import {
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '../../../components/lite/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/form-errors';
import type { ExamApi } from '../api/exam-api';

/** The participant fills in their own card before the test (PUT /api/user/saveParticipant). */
export function ParticipantCardForm({ api, onSaved }: { api: ExamApi; onSaved: () => void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState({ surname: '', name: '', patronymic: '', birthDate: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof fields) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setFields((prev) => ({ ...prev, [key]: value }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      surname: fields.surname.trim(),
      name: fields.name.trim(),
      ...(fields.patronymic.trim() ? { patronymic: fields.patronymic.trim() } : {}),
      birthDate: fields.birthDate,
    };
    const parsed = participantCardBodySchema.safeParse(body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= t('validation.required');
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    setProblem(null);
    try {
      await api.saveParticipant(parsed.data);
      onSaved();
    } catch (error) {
      setProblem(describeApiError(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      component="form"
      onSubmit={submit}
      noValidate
      data-testid="participant-card"
    >
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('start.card.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('start.card.intro')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('start.card.surname')}
            required
            value={fields.surname}
            onChange={set('surname')}
            error={errors.surname}
            autoComplete="family-name"
          />
          <TextInput
            label={t('start.card.name')}
            required
            value={fields.name}
            onChange={set('name')}
            error={errors.name}
            autoComplete="given-name"
          />
          <TextInput
            label={t('start.card.patronymic')}
            value={fields.patronymic}
            onChange={set('patronymic')}
            error={errors.patronymic}
            autoComplete="additional-name"
          />
          <TextInput
            label={t('start.card.birthDate')}
            required
            type="date"
            value={fields.birthDate}
            onChange={set('birthDate')}
            error={errors.birthDate}
            autoComplete="bday"
          />
        </SimpleGrid>
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy} data-testid="save-card">
            {t('start.card.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

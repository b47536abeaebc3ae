/** `/expert/profile`: which subjects and grades the expert grades, and how many answers a day. */
import type { ExpertProfile } from '@attesta/contract';
import { Alert, Chip, Group, Loader, MultiSelect, NumberInput, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useBundleT, type LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { isSessionGone } from '../../../lib/api-client';
import { expertKeys } from '../api/grading-api';
import { getProfile, listSubjects, saveProfile } from '../api/profile-api';
import { expertBundle } from '../locales';
import { describeApiError } from '../../../lib/form-errors';

const PARALLELS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

export function ExpertProfilePage() {
  const { t } = useBundleT(expertBundle);
  const profile = useQuery({ queryKey: expertKeys.profile, queryFn: ({ signal }) => getProfile(signal) });
  return (
    <Stack gap="lg" maw={720}>
      <PageTitle>{t('expert.profile.title')}</PageTitle>
      {profile.isPending && <Loader />}
      {profile.error && (
        <Alert color="red" variant="light">
          {describeApiError(profile.error, t)}
        </Alert>
      )}
      {profile.data && <ProfileForm profile={profile.data} t={t} />}
    </Stack>
  );
}

function ProfileForm({ profile, t }: { profile: ExpertProfile; t: LooseT }) {
  const queryClient = useQueryClient();
  const subjects = useQuery({ queryKey: expertKeys.subjects, queryFn: ({ signal }) => listSubjects(signal) });
  const [subjectIds, setSubjectIds] = useState(profile.subjectIds.map(String));
  const [parallels, setParallels] = useState(profile.parallels.map(String));
  const [maxPerDay, setMaxPerDay] = useState<string | number>(profile.maxPerDay ?? '');
  const [busy, setBusy] = useState(false);

  const options = new Map<number, string>();
  for (const s of profile.subjects) options.set(s.id, s.name);
  for (const s of subjects.data?.items ?? []) options.set(s.id, s.name);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const limit = Number(maxPerDay);
      const saved = await saveProfile({
        subjectIds: subjectIds.map(Number),
        parallels: parallels.map(Number).sort((a, b) => a - b),
        maxPerDay: maxPerDay === '' || !Number.isInteger(limit) || limit < 1 ? null : limit,
      });
      queryClient.setQueryData(expertKeys.profile, saved);
      await queryClient.invalidateQueries({ queryKey: expertKeys.all });
      notifications.show({ color: 'green', message: t('expert.profile.saved') });
    } catch (error) {
      if (isSessionGone(error)) return;
      notifications.show({
        color: 'red',
        message: t('expert.profile.failed', { message: describeApiError(error, t) }),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="lg" radius="md" component="form" onSubmit={submit} data-testid="expert-profile-form">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('expert.profile.open', { count: profile.openAssignments })}
        </Text>
        {profile.subjectTests.length > 0 && (
          <Text size="sm" data-testid="expert-profile-tests">
            {t('expert.profile.tests', {
              tests: profile.subjectTests.map((s) => `«${s.name}» (${s.subjectName})`).join(', '),
            })}
          </Text>
        )}
        <MultiSelect
          label={t('expert.profile.subjects')}
          searchable
          data={[...options].map(([id, name]) => ({ value: String(id), label: name }))}
          value={subjectIds}
          onChange={setSubjectIds}
          data-testid="expert-profile-subjects"
        />
        <Chip.Group multiple value={parallels} onChange={setParallels}>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('expert.profile.parallels')}
            </Text>
            <Group gap="xs">
              {PARALLELS.map((p) => (
                <Chip key={p} value={String(p)} size="sm">
                  {p === 0 ? t('expert.profile.preschool') : String(p)}
                </Chip>
              ))}
            </Group>
          </Stack>
        </Chip.Group>
        <NumberInput
          label={t('expert.profile.maxPerDay')}
          min={1}
          max={1000}
          allowDecimal={false}
          value={maxPerDay}
          onChange={setMaxPerDay}
          w={320}
          data-testid="expert-profile-max"
        />
        <Group>
          <LoadingButton type="submit" loading={busy} data-testid="expert-profile-save">
            {t('expert.profile.save')}
          </LoadingButton>
        </Group>
      </Stack>
    </Paper>
  );
}

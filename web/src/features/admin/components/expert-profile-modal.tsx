/**
 * From the admin's users screen: what an expert grades — subjects (in grades), subject tests (any
 * grade, searched on the server) and a daily limit (docs/design.md §3). Saving assigns the answers
 * that wait for such an expert.
 */
import type { ExpertProfile, UserListItem } from '@attesta/contract';
import {
  Alert,
  Chip,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NumberInput,
  Stack,
  Text,
  type OptionsFilter,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { describeApiError } from '../../../lib/form-errors';
import {
  adminKeys,
  getExpertProfile,
  listSubjects,
  listSubjectTests,
  saveExpertProfile,
} from '../api/admin-api';
import { useAdminT } from '../i18n';

const GRADES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/** The server already searched: show its answer as it is. */
const serverFiltered: OptionsFilter = ({ options }) => options;

export function ExpertProfileModal({
  user,
  onDone,
}: {
  user: UserListItem;
  onDone: (message: string | null) => void;
}) {
  const t = useAdminT();
  const profile = useQuery({
    queryKey: adminKeys.expert(user.id),
    queryFn: () => getExpertProfile(user.id),
    retry: false,
  });
  const { t: appT } = useTranslation();
  return (
    <Modal opened onClose={() => onDone(null)} title={t('experts.title', { login: user.login })} size="lg">
      {profile.isPending && <Loader size="sm" aria-label={t('experts.title', { login: user.login })} />}
      {profile.error && (
        <Alert color="red" role="alert" data-testid="expert-profile-error">
          {describeApiError(profile.error, appT)}
        </Alert>
      )}
      {profile.data && <ExpertProfileForm user={user} profile={profile.data} onDone={onDone} />}
    </Modal>
  );
}

function ExpertProfileForm({
  user,
  profile,
  onDone,
}: {
  user: UserListItem;
  profile: ExpertProfile;
  onDone: (message: string | null) => void;
}) {
  const t = useAdminT();
  const { t: appT } = useTranslation();
  const queryClient = useQueryClient();
  const [subjectIds, setSubjectIds] = useState(profile.subjectIds.map(String));
  const [testIds, setTestIds] = useState(profile.subjectTestIds.map(String));
  const [grades, setGrades] = useState(profile.parallels.map(String));
  const [maxPerDay, setMaxPerDay] = useState<string | number>(profile.maxPerDay ?? '');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const subjects = useQuery({
    queryKey: [...adminKeys.content, 'subjects', 'all'],
    queryFn: () => listSubjects({ page: 1, pageSize: 500, sort: { field: 'name', dir: 'asc' } }),
  });
  const found = useQuery({
    queryKey: [...adminKeys.content, 'subject-tests', 'pick', debounced],
    queryFn: () =>
      listSubjectTests({
        page: 1,
        pageSize: 30,
        sort: { field: 'name', dir: 'asc' },
        ...(debounced ? { filter: { search: debounced } } : {}),
      }),
    placeholderData: keepPreviousData,
  });

  const subjectOptions = new Map<string, string>();
  for (const s of profile.subjects) subjectOptions.set(String(s.id), s.name);
  for (const s of subjects.data?.items ?? []) subjectOptions.set(String(s.id), s.name);
  // The chosen tests keep their names while the search shows others.
  const [known, setKnown] = useState(
    () => new Map(profile.subjectTests.map((s) => [String(s.id), `${s.name} · ${s.subjectName}`])),
  );
  const testOptions = new Map(known);
  for (const s of found.data?.items ?? []) testOptions.set(String(s.id), `${s.name} · ${s.subjectName}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const limit = Number(maxPerDay);
      await saveExpertProfile(user.id, {
        subjectIds: subjectIds.map(Number),
        subjectTestIds: testIds.map(Number),
        parallels: grades.map(Number).sort((a, b) => a - b),
        maxPerDay: maxPerDay === '' || !Number.isInteger(limit) || limit < 1 ? null : limit,
      });
      await queryClient.invalidateQueries({ queryKey: adminKeys.expert(user.id) });
      onDone(t('experts.saved', { login: user.login }));
    } catch (e) {
      setError(describeApiError(e, appT));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="expert-profile-form">
      <Stack gap="md">
        <Text size="sm">{t('experts.intro')}</Text>
        <Text size="sm" c="dimmed" data-testid="expert-profile-open">
          {t('experts.open_assignments', { count: profile.openAssignments })}
        </Text>
        {error && (
          <Alert color="red" role="alert" data-testid="expert-profile-save-error">
            {error}
          </Alert>
        )}
        <MultiSelect
          label={t('experts.subjectTests')}
          description={t('experts.subjectTestsHint')}
          searchable
          clearable
          filter={serverFiltered}
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage={t('experts.notFound')}
          data={[...testOptions].map(([value, label]) => ({ value, label }))}
          value={testIds}
          onChange={(ids) => {
            setTestIds(ids);
            setKnown(
              (prev) => new Map([...prev, ...ids.map((id) => [id, testOptions.get(id) ?? id] as const)]),
            );
          }}
          data-testid="expert-profile-tests"
        />
        <MultiSelect
          label={t('experts.subjects')}
          description={t('experts.subjectsHint')}
          searchable
          nothingFoundMessage={t('experts.notFound')}
          data={[...subjectOptions].map(([value, label]) => ({ value, label }))}
          value={subjectIds}
          onChange={setSubjectIds}
          data-testid="expert-profile-subjects"
        />
        <Chip.Group multiple value={grades} onChange={setGrades}>
          <Stack gap={4}>
            <Text size="sm" fw={500} id={`expert-grades-${user.id}`}>
              {t('experts.parallels')}
            </Text>
            <Group gap="xs" role="group" aria-labelledby={`expert-grades-${user.id}`}>
              {GRADES.map((g) => (
                <Chip key={g} value={String(g)} size="sm">
                  {g === 0 ? t('experts.preschool') : String(g)}
                </Chip>
              ))}
            </Group>
          </Stack>
        </Chip.Group>
        {subjectIds.length > 0 && grades.length === 0 && (
          <Alert color="orange" data-testid="expert-profile-no-grades">
            {t('experts.noGrades')}
          </Alert>
        )}
        <NumberInput
          label={t('experts.maxPerDay')}
          description={t('experts.maxPerDayHint')}
          min={1}
          max={1000}
          allowDecimal={false}
          value={maxPerDay}
          onChange={setMaxPerDay}
          w={280}
        />
        <Group justify="flex-end">
          <LoadingButton variant="default" type="button" onClick={() => onDone(null)}>
            {t('common.cancel')}
          </LoadingButton>
          <LoadingButton type="submit" loading={busy} data-testid="expert-profile-save">
            {t('common.save')}
          </LoadingButton>
        </Group>
      </Stack>
    </form>
  );
}

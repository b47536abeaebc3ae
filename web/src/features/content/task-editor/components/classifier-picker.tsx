/**
 * Classifiers: elements of a specification (кодификатор) the task checks, picked from its tree.
 * Elements of other specifications stay chosen and are counted.
 */
import {
  Alert,
  Badge,
  Checkbox,
  Group,
  Loader,
  ScrollArea,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, useMemo, useState } from 'react';
import { describeApiError } from '../../../../lib/form-errors';
import { getSpecification, listSpecifications } from '../api/specifications';
import { taskEditorKeys } from '../api/tasks';
import { useTaskEditorT } from '../locales';

interface ClassifierPickerProps {
  subjectId: number | null;
  value: number[];
  onChange: (ids: number[]) => void;
}

export const ClassifierPicker = memo(function ClassifierPicker({
  subjectId,
  value,
  onChange,
}: ClassifierPickerProps) {
  const { t } = useTaskEditorT();
  const [chosenSpec, setChosenSpec] = useState<number | null>(null);
  const [filter, setFilter] = useState('');
  const specs = useQuery({
    queryKey: taskEditorKeys.specifications(subjectId),
    queryFn: () => listSpecifications(subjectId),
    retry: false,
  });
  const specId = chosenSpec ?? specs.data?.[0]?.id ?? null;
  const spec = useQuery({
    queryKey: taskEditorKeys.specification(specId ?? 0),
    queryFn: () => getSpecification(specId!),
    enabled: specId !== null,
    retry: false,
  });
  const elements = useMemo(() => spec.data?.elements ?? [], [spec.data]);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    if (!q) return elements;
    return elements.filter((e) => e.code.toLowerCase().includes(q) || e.name.toLowerCase().includes(q));
  }, [elements, filter]);
  const chosenHere = elements.filter((e) => value.includes(e.id));
  const elsewhere = value.filter((id) => !elements.some((e) => e.id === id)).length;

  if (specs.isLoading) return <Loader size="sm" />;
  if (specs.error)
    return (
      <Alert color="red" role="alert">
        {describeApiError(specs.error, t)}
      </Alert>
    );
  if (!specs.data?.length)
    return (
      <Text size="sm" c="dimmed">
        {t('taskEditor.classifiers.none')}
      </Text>
    );

  return (
    <Stack gap="xs" data-testid="classifiers">
      {specs.data.length > 1 && (
        <Select
          label={t('taskEditor.classifiers.specification')}
          value={String(specId)}
          allowDeselect={false}
          onChange={(v) => v && setChosenSpec(Number(v))}
          data={specs.data.map((s) => ({ value: String(s.id), label: s.name }))}
        />
      )}
      {specs.data.length === 1 && (
        <Text size="sm">
          {t('taskEditor.classifiers.specification')}: {specs.data[0]!.name}
        </Text>
      )}
      <Group gap={6}>
        {chosenHere.map((e) => (
          <Badge key={e.id} variant="light" tt="none">
            {e.code} {e.name}
          </Badge>
        ))}
        {elsewhere > 0 && (
          <Text size="sm" c="dimmed">
            {t('taskEditor.classifiers.elsewhere', { count: elsewhere })}
          </Text>
        )}
        {!chosenHere.length && !elsewhere && (
          <Text size="sm" c="dimmed">
            {t('taskEditor.classifiers.noneChosen')}
          </Text>
        )}
      </Group>
      <TextInput
        label={t('taskEditor.classifiers.filter')}
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
      />
      {spec.isLoading && <Loader size="sm" />}
      {spec.error && (
        <Alert color="red" role="alert">
          {describeApiError(spec.error, t)}
        </Alert>
      )}
      <ScrollArea.Autosize mah={320} type="auto">
        <Stack gap={4} role="group" aria-label={t('taskEditor.classifiers.tree')}>
          {shown.map((e) => (
            <Checkbox
              key={e.id}
              style={{ paddingLeft: filter ? 0 : e.depth * 20 }}
              checked={value.includes(e.id)}
              onChange={(ev) =>
                onChange(ev.currentTarget.checked ? [...value, e.id] : value.filter((id) => id !== e.id))
              }
              label={
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" fw={600}>
                    {e.code}
                  </Text>
                  <Text size="sm">{e.name}</Text>
                  <Badge size="xs" variant="outline" color={e.kind === 'skill' ? 'grape' : 'blue'}>
                    {t(
                      e.kind === 'skill' ? 'taskEditor.classifiers.skill' : 'taskEditor.classifiers.content',
                    )}
                  </Badge>
                </Group>
              }
            />
          ))}
          {!shown.length && !spec.isLoading && (
            <Text size="sm" c="dimmed">
              {t('taskEditor.classifiers.nothingFound')}
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
});

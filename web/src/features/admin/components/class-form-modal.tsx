import {
  adminBuildingSaveBodySchema,
  adminClassSaveBodySchema,
  defaultClassName,
  type AdminBuilding,
  type AdminClass,
} from '@attesta/contract';
import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { orgKeys, saveBuilding, saveClass } from '../api/admin-org-api';
import { useAdminT } from '../i18n';
import { orNull, useEditForm } from '../../../lib/use-edit-form';
import { FormModal } from '../../../components/ui/form-modal';
import { useParallelOptions } from './org-selects';

/** The body of a class save: grade as a number, an empty name left to the default. */
export const classBodyOf = (v: { parallel: string; letter: string; name: string; buildingId: string }) => ({
  parallel: v.parallel === '' ? undefined : Number(v.parallel),
  letter: v.letter,
  ...(v.name.trim() ? { name: v.name } : {}),
  buildingId: v.buildingId ? Number(v.buildingId) : null,
});

/** Add a class to the school (no class) or edit one. */
export function ClassFormModal({
  schoolId,
  cls,
  buildings,
  onClose,
}: {
  schoolId: number;
  cls: AdminClass | null;
  buildings: readonly AdminBuilding[];
  onClose: () => void;
}) {
  const t = useAdminT();
  const queryClient = useQueryClient();
  const parallels = useParallelOptions();
  const form = useEditForm(() => ({
    parallel: cls ? String(cls.parallel) : '',
    letter: cls?.letter ?? '',
    // A default name is left empty, so it follows a new grade or letter.
    name: cls && cls.name !== defaultClassName(cls.parallel, cls.letter) ? cls.name : '',
    buildingId: cls?.buildingId ? String(cls.buildingId) : '',
  }));
  const example = defaultClassName(
    Number(form.values.parallel || 7),
    form.values.letter.toUpperCase() || 'А',
  );
  const onSubmit = () =>
    form.submit(
      adminClassSaveBodySchema.safeParse(classBodyOf(form.values)),
      async (body) => {
        await saveClass(body, cls ? { id: cls.id } : { schoolId });
        await queryClient.invalidateQueries({ queryKey: orgKeys.school(schoolId) });
        onClose();
      },
      { codeToField: { class_exists: { field: 'letter', message: t('org.classExists') } } },
    );
  return (
    <FormModal
      title={cls ? t('org.editClass', { name: cls.name }) : t('org.newClass')}
      testId="class-form"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('org.parallel')}
          withAsterisk
          data={parallels}
          value={form.values.parallel || null}
          onChange={(v) => form.set('parallel', v ?? '')}
          {...form.errorOf('parallel')}
        />
        <TextInput
          label={t('org.letter')}
          description={t('org.letterHint')}
          withAsterisk
          {...form.text('letter')}
        />
        <TextInput
          label={t('org.name')}
          description={t('org.classNameHint', { example })}
          {...form.text('name')}
        />
        <Select
          label={t('org.building')}
          clearable
          placeholder={t('org.noBuilding')}
          data={buildings.map((b) => ({ value: String(b.id), label: b.name }))}
          value={form.values.buildingId || null}
          onChange={(v) => form.set('buildingId', v ?? '')}
          {...form.errorOf('buildingId')}
        />
      </SimpleGrid>
    </FormModal>
  );
}

/** Add a building to the school (no building) or rename one. */
export function BuildingFormModal({
  schoolId,
  building,
  onClose,
}: {
  schoolId: number;
  building: AdminBuilding | null;
  onClose: () => void;
}) {
  const t = useAdminT();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({ name: building?.name ?? '', address: building?.address ?? '' }));
  const onSubmit = () =>
    form.submit(
      adminBuildingSaveBodySchema.safeParse({ name: form.values.name, address: orNull(form.values.address) }),
      async (body) => {
        await saveBuilding(body, building ? { id: building.id } : { schoolId });
        await queryClient.invalidateQueries({ queryKey: orgKeys.school(schoolId) });
        onClose();
      },
    );
  return (
    <FormModal
      title={building ? t('org.editBuilding', { name: building.name }) : t('org.newBuilding')}
      testId="building-form"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextInput label={t('org.name')} withAsterisk {...form.text('name')} />
      <TextInput label={t('org.address')} {...form.text('address')} />
    </FormModal>
  );
}

import {
  adminOoSaveBodySchema,
  adminSchoolSaveBodySchema,
  type AdminOo,
  type AdminSchool,
} from '@attesta/contract';
import { SimpleGrid, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { createOo, orgKeys, saveSchool } from '../api/admin-org-api';
import { useAdminT } from '../i18n';
import { orNull, useEditForm } from '../../../lib/use-edit-form';
import { FormModal } from '../../../components/ui/form-modal';
import { AreaSelect, RemoteSelect } from './org-selects';

/** The body of a school save: empty optional fields clear (null). */
export const schoolBodyOf = (v: {
  ooId: number | null;
  name: string;
  shortName: string;
  code: string;
  areaId: number | null;
}) => ({
  ooId: v.ooId ?? undefined,
  name: v.name,
  shortName: orNull(v.shortName),
  code: orNull(v.code),
  areaId: v.areaId,
});

/** Create (no school) or edit a school; checked with the contract schema before sending. */
export function SchoolFormModal({ school, onClose }: { school: AdminSchool | null; onClose: () => void }) {
  const t = useAdminT();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({
    ooId: school?.ooId ?? null,
    name: school?.name ?? '',
    shortName: school?.shortName ?? '',
    code: school?.code ?? '',
    areaId: school?.areaId ?? null,
  }));
  const onSubmit = () =>
    form.submit(
      adminSchoolSaveBodySchema.safeParse(schoolBodyOf(form.values)),
      async (body) => {
        await saveSchool(body, school?.id);
        await queryClient.invalidateQueries({ queryKey: orgKeys.schools });
        onClose();
      },
      { codeToField: { school_code_taken: { field: 'code', message: t('org.codeTaken') } } },
    );
  return (
    <FormModal
      title={school ? t('org.editSchool', { name: school.name }) : t('org.newSchool')}
      testId="school-form"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <RemoteSelect
        kind="oo"
        label={t('org.oo')}
        withAsterisk
        value={form.values.ooId}
        valueLabel={school?.ooName}
        onChange={(id) => form.set('ooId', id)}
        {...form.errorOf('ooId')}
      />
      <TextInput label={t('org.name')} withAsterisk {...form.text('name')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('org.shortName')} {...form.text('shortName')} />
        <TextInput label={t('org.code')} {...form.text('code')} />
      </SimpleGrid>
      <AreaSelect
        value={form.values.areaId}
        onChange={(id) => form.set('areaId', id)}
        {...form.errorOf('areaId')}
      />
    </FormModal>
  );
}

/** A new educational organisation (ОО). */
export function OoFormModal({ onClose }: { onClose: (created: AdminOo | null) => void }) {
  const t = useAdminT();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({ name: '', shortName: '', inn: '' }));
  const onSubmit = () =>
    form.submit(
      adminOoSaveBodySchema.safeParse({
        name: form.values.name,
        shortName: orNull(form.values.shortName),
        inn: orNull(form.values.inn),
      }),
      async (body) => {
        const created = await createOo(body);
        await queryClient.invalidateQueries({ queryKey: orgKeys.oo });
        onClose(created);
      },
    );
  return (
    <FormModal
      title={t('org.newOo')}
      testId="oo-form"
      form={form}
      onSubmit={onSubmit}
      onClose={() => onClose(null)}
    >
      <TextInput label={t('org.name')} withAsterisk {...form.text('name')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('org.shortName')} {...form.text('shortName')} />
        <TextInput label={t('org.inn')} inputMode="numeric" {...form.text('inn')} />
      </SimpleGrid>
    </FormModal>
  );
}

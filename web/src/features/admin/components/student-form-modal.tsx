import { adminStudentSaveBodySchema, STAFF_GENDERS, type AdminStudent } from '@attesta/contract';
import { Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatPlainDate } from '../../../lib/format';
import { orgKeys, saveStudent } from '../api/admin-org-api';
import { useAdminT } from '../i18n';
import { orNull, useEditForm } from '../../../lib/use-edit-form';
import { FormModal } from '../../../components/ui/form-modal';
import { ClassSelect, RemoteSelect } from './org-selects';

interface StudentValues extends Record<string, unknown> {
  schoolId: number | null;
  classId: number | null;
  surname: string;
  name: string;
  patronymic: string;
  birthDate: string;
  gender: string;
}

/** The body of a student save: empty optional fields clear (null). */
export const studentBodyOf = (v: StudentValues) => ({
  classId: v.classId ?? undefined,
  surname: v.surname,
  name: v.name,
  patronymic: orNull(v.patronymic),
  birthDate: orNull(v.birthDate),
  gender: v.gender || null,
});

/** Create (no student) or edit a student; an existing student changes class only within the school. */
export function StudentFormModal({
  student,
  initialSchool,
  onClose,
}: {
  student: AdminStudent | null;
  /** The school the list is filtered by: a new student starts there. */
  initialSchool?: number | null;
  onClose: () => void;
}) {
  const t = useAdminT();
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const form = useEditForm<StudentValues>(() => ({
    schoolId: student?.schoolId ?? initialSchool ?? null,
    classId: student?.classId ?? null,
    surname: student?.surname ?? '',
    name: student?.name ?? '',
    patronymic: student?.patronymic ?? '',
    birthDate: student?.birthDate ?? '',
    gender: student?.gender ?? '',
  }));
  const { values } = form;

  const onSubmit = () => {
    const extraErrors: Record<string, string> = {};
    if (values.schoolId === null) extraErrors.schoolId = i18n.t('validation.required');
    if (values.birthDate && values.birthDate > formatPlainDate(new Date()))
      extraErrors.birthDate = t('students.birthInFuture');
    return form.submit(
      adminStudentSaveBodySchema.safeParse(studentBodyOf(values)),
      async (body) => {
        await saveStudent(body, student?.id);
        await queryClient.invalidateQueries({ queryKey: orgKeys.students });
        onClose();
      },
      {
        extraErrors,
        codeToField: { duplicate_student: { field: 'surname', message: t('students.duplicate') } },
      },
    );
  };

  return (
    <FormModal
      title={
        student
          ? t('students.editTitle', { name: `${student.surname} ${student.name}` })
          : t('students.createTitle')
      }
      testId="student-form"
      form={form}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <RemoteSelect
          kind="school"
          label={t('students.school')}
          withAsterisk
          disabled={student !== null}
          value={values.schoolId}
          valueLabel={student?.schoolName}
          onChange={(id) => {
            form.set('schoolId', id);
            form.set('classId', null);
          }}
          {...form.errorOf('schoolId')}
        />
        <ClassSelect
          label={t('students.className')}
          withAsterisk
          schoolId={values.schoolId}
          value={values.classId}
          onChange={(id) => form.set('classId', id)}
          {...form.errorOf('classId')}
        />
      </SimpleGrid>
      {student && (
        <Text size="xs" c="dimmed">
          {t('students.schoolFixed')}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label={t('students.surname')} withAsterisk {...form.text('surname')} />
        <TextInput label={t('students.firstName')} withAsterisk {...form.text('name')} />
        <TextInput label={t('students.patronymic')} {...form.text('patronymic')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput type="date" label={t('students.birthDate')} {...form.text('birthDate')} />
        <Select
          label={t('students.gender')}
          clearable
          data={STAFF_GENDERS.map((g) => ({ value: g, label: t(`students.genders.${g}`) }))}
          value={values.gender || null}
          onChange={(v) => form.set('gender', v ?? '')}
          {...form.errorOf('gender')}
        />
      </SimpleGrid>
    </FormModal>
  );
}

import { staffStudentSaveBodySchema, type StaffClass, type StaffStudent } from '@attesta/contract';
import { Alert, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useApiForm } from '../../../lib/use-api-form';
import { LoadingButton } from '../../../components/ui/loading-button';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { staffBundle } from '../../../components/staff-locales';
import type { StaffRole } from '../api/shared';
import { saveStudent } from '../api/students';

interface StudentFormProps {
  role: StaffRole;
  student: StaffStudent | null;
  classes: StaffClass[];
  onSaved: (student: StaffStudent) => void;
  onCancel: () => void;
}

/** Create or edit a student: checked with the contract schema first, server field errors inline. */
export function StudentForm({ role, student, classes, onSaved, onCancel }: StudentFormProps) {
  const { t } = useBundleT(staffBundle);
  const { attachForm, fieldErrors, formError, isLoading, submit, clearFieldError } = useApiForm();
  const [values, setValues] = useState({
    surname: student?.surname ?? '',
    name: student?.name ?? '',
    patronymic: student?.patronymic ?? '',
    birthDate: student?.birthDate ?? '',
    gender: student?.gender ?? '',
    classId: student?.classId ? String(student.classId) : '',
  });
  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    clearFieldError(field);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = staffStudentSaveBodySchema.safeParse({
      ...(student ? { id: student.id } : {}),
      surname: values.surname,
      name: values.name,
      patronymic: values.patronymic,
      birthDate: values.birthDate,
      gender: values.gender === '' ? null : values.gender,
      classId: values.classId ? Number(values.classId) : undefined,
    });
    void submit(checked, async (body) => onSaved(await saveStudent(role, body)));
  };

  const err = fieldErrors;
  return (
    <form ref={attachForm} onSubmit={onSubmit} noValidate data-testid="student-form">
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert" data-testid="student-form-error">
            {formError}
          </Alert>
        )}
        <TextInput
          label={t('staff.students.surname')}
          required
          value={values.surname}
          onChange={(e) => set('surname')(e.currentTarget.value)}
          error={err.surname}
        />
        <TextInput
          label={t('staff.students.name')}
          required
          value={values.name}
          onChange={(e) => set('name')(e.currentTarget.value)}
          error={err.name}
        />
        <TextInput
          label={t('staff.students.patronymic')}
          value={values.patronymic}
          onChange={(e) => set('patronymic')(e.currentTarget.value)}
          error={err.patronymic}
        />
        <TextInput
          type="date"
          label={t('staff.students.birthDate')}
          required
          value={values.birthDate}
          onChange={(e) => set('birthDate')(e.currentTarget.value)}
          error={err.birthDate}
        />
        <NativeSelect
          label={t('staff.students.gender')}
          value={values.gender}
          onChange={(e) => set('gender')(e.currentTarget.value)}
          data={[
            { value: '', label: t('staff.students.notSet') },
            { value: 'male', label: t('staff.students.male') },
            { value: 'female', label: t('staff.students.female') },
          ]}
          error={err.gender}
        />
        <NativeSelect
          label={t('staff.students.class')}
          required
          value={values.classId}
          onChange={(e) => set('classId')(e.currentTarget.value)}
          data={[{ value: '', label: '—' }, ...classes.map((c) => ({ value: String(c.id), label: c.name }))]}
          error={err.classId}
        />
        <Group justify="flex-end">
          <LoadingButton variant="default" type="button" onClick={onCancel}>
            {t('staff.common.cancel')}
          </LoadingButton>
          <LoadingButton type="submit" loading={isLoading} data-testid="student-save">
            {t('staff.common.save')}
          </LoadingButton>
        </Group>
      </Stack>
    </form>
  );
}

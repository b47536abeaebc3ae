import {
  passwordSchema,
  userSaveBodySchema,
  type RoleInfo,
  type UserListItem,
  type UserSaveBody,
} from '@attesta/contract';
import { Alert, Checkbox, Group, Modal, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { useApiForm } from '../../../lib/use-api-form';
import { adminKeys, saveUser } from '../api/admin-api';
import { useAdminT } from '../i18n';
import { AreaSelect, RemoteSelect } from './org-selects';

interface FormValues {
  login: string;
  email: string;
  surname: string;
  name: string;
  patronymic: string;
  roles: string[];
  schoolId: number | null;
  areaId: number | null;
  isBlocked: boolean;
  password: string;
}

function initialValues(user: UserListItem | null): FormValues {
  return {
    login: user?.login ?? '',
    email: user?.email ?? '',
    surname: user?.surname ?? '',
    name: user?.name ?? '',
    patronymic: user?.patronymic ?? '',
    roles: user ? [...user.roles] : [],
    schoolId: user?.schoolId ?? null,
    areaId: user?.areaId ?? null,
    isBlocked: user?.isBlocked ?? false,
    password: '',
  };
}

/** The body `POST /api/User` receives: empty optional fields clear the value (null). */
export function userBodyOf(values: FormValues, id?: number): Record<string, unknown> {
  return {
    ...(id ? { id } : {}),
    login: values.login.trim(),
    email: values.email.trim() || null,
    surname: values.surname,
    name: values.name,
    patronymic: values.patronymic,
    roles: values.roles,
    schoolId: values.schoolId,
    // An area binds only an ugnik (docs/ugnik.md); other roles leave it as it is.
    ...(values.roles.includes('ugnik') ? { areaId: values.areaId } : {}),
    isBlocked: values.isBlocked,
  };
}

interface Props {
  /** null: a new user. */
  user: UserListItem | null;
  roles: readonly RoleInfo[];
  onClose: () => void;
}

/** Create / edit a user; validates with the contract schema before sending, shows the server's field errors. */
export function UserFormModal({ user, roles, onClose }: Props) {
  const t = useAdminT();
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<FormValues>(() => initialValues(user));
  const { attachForm, isLoading, fieldErrors, formError, submit, clearFieldError } = useApiForm();
  const mutation = useMutation({
    mutationFn: ({ body, pwd }: { body: UserSaveBody; pwd?: string }) => saveUser(body, pwd),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });

  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    clearFieldError(field);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const extraErrors: Record<string, string> = {};
    if (!values.login.trim()) extraErrors.login = i18n.t('validation.required');
    if (values.password && !passwordSchema.safeParse(values.password).success)
      extraErrors.password = i18n.t('validation.passwordMin', { min: 8 });
    await submit(
      userSaveBodySchema.safeParse(userBodyOf(values, user?.id)),
      async (data) => {
        await mutation.mutateAsync({ body: data, pwd: values.password || undefined });
        onClose();
      },
      {
        extraErrors,
        codeToField: {
          login_taken: { field: 'login', message: t('users.loginTaken') },
          email_taken: { field: 'email', message: t('users.emailTaken') },
          self_lockout: { field: 'roles', message: t('users.selfLockout') },
        },
      },
    );
  };

  const text = (field: 'login' | 'email' | 'surname' | 'name' | 'patronymic', label: string) => (
    <TextInput
      label={label}
      value={values[field]}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={fieldErrors[field]}
      aria-invalid={Boolean(fieldErrors[field]) || undefined}
      withAsterisk={field === 'login'}
    />
  );

  return (
    <Modal
      opened
      onClose={onClose}
      title={user ? t('users.editTitle', { login: user.login }) : t('users.createTitle')}
      size="lg"
    >
      <form ref={attachForm} onSubmit={(e) => void onSubmit(e)} noValidate data-testid="user-form">
        <Stack>
          {formError && (
            <Alert color="red" role="alert" data-testid="user-form-error">
              {formError}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('login', t('users.login'))}
            {text('email', t('users.email'))}
            {text('surname', t('users.surname'))}
            {text('name', t('users.firstName'))}
            {text('patronymic', t('users.patronymic'))}
            <RemoteSelect
              kind="school"
              label={t('users.school')}
              placeholder={t('users.schoolSearch')}
              value={values.schoolId}
              valueLabel={user?.schoolName ?? null}
              onChange={(id) => set('schoolId', id)}
              error={fieldErrors.schoolId}
              aria-invalid={Boolean(fieldErrors.schoolId) || undefined}
            />
          </SimpleGrid>
          <Checkbox.Group
            label={t('users.roles')}
            value={values.roles}
            onChange={(v) => set('roles', v)}
            error={fieldErrors.roles}
          >
            <Group mt="xs">
              {roles.map((role) => (
                <Checkbox
                  key={role.code}
                  value={role.code}
                  label={i18n.language === 'en' ? role.nameEn : role.nameRu}
                />
              ))}
            </Group>
          </Checkbox.Group>
          {values.roles.includes('ugnik') && (
            <AreaSelect
              description={t('users.areaHint')}
              value={values.areaId}
              onChange={(id) => set('areaId', id)}
              error={fieldErrors.areaId}
            />
          )}
          <Checkbox
            label={t('users.blocked')}
            checked={values.isBlocked}
            onChange={(e) => set('isBlocked', e.currentTarget.checked)}
          />
          <PasswordInput
            label={t('users.password')}
            description={t('users.passwordHint')}
            value={values.password}
            onChange={(e) => set('password', e.currentTarget.value)}
            error={fieldErrors.password}
            aria-invalid={Boolean(fieldErrors.password) || undefined}
            autoComplete="new-password"
          />
          <Group justify="flex-end">
            <LoadingButton variant="default" type="button" onClick={onClose}>
              {t('common.cancel')}
            </LoadingButton>
            <LoadingButton type="submit" loading={isLoading}>
              {t('common.save')}
            </LoadingButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_MIN } from '@attesta/contract';
import { useTranslation } from 'react-i18next';

interface NewPasswordFieldsProps {
  label: string;
  value: { password: string; repeat: string };
  onChange: (next: { password: string; repeat: string }) => void;
  errors: { password?: string; repeat?: string };
  name?: string;
}

/** A new password typed twice: a typo in a password nobody can see would lock the user out. */
export function NewPasswordFields({
  label,
  value,
  onChange,
  errors,
  name = 'password',
}: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <PasswordInput
        label={label}
        description={t('account.passwordHint', { min: PASSWORD_MIN })}
        name={name}
        autoComplete="new-password"
        required
        value={value.password}
        onChange={(event) => onChange({ ...value, password: event.currentTarget.value })}
        error={errors.password}
      />
      <PasswordInput
        label={t('account.passwordRepeat')}
        name={`${name}Repeat`}
        autoComplete="new-password"
        required
        value={value.repeat}
        onChange={(event) => onChange({ ...value, repeat: event.currentTarget.value })}
        error={errors.repeat}
      />
    </Stack>
  );
}

/** `{ passwordRepeat: message }` when the two entries differ and the first is filled in. */
export function repeatError(
  password: string,
  repeat: string,
  field: string,
  message: string,
): Record<string, string> {
  return password && password !== repeat ? { [field]: message } : {};
}

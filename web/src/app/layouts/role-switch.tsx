import { NativeSelect } from '../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Badge } from '../../components/lite/badge';
import { isHomeRole, ROLE_HOME_PATH, type HomeRole } from '../../lib/roles';

interface RoleSwitchProps {
  roles: HomeRole[];
  active: HomeRole | null;
}

/** A user with several roles moves between their homes; with one role it is just a label. */
export function RoleSwitch({ roles, active }: RoleSwitchProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (roles.length <= 1) {
    return active ? <Badge data-testid="current-role">{t(`roles.${active}`)}</Badge> : null;
  }
  return (
    <NativeSelect
      size="xs"
      aria-label={t('header.role')}
      value={active ?? ''}
      onChange={(event) => {
        const role = event.currentTarget.value;
        if (isHomeRole(role)) void navigate(ROLE_HOME_PATH[role]);
      }}
      data={roles.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
      data-testid="role-switch"
    />
  );
}

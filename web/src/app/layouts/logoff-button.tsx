import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../components/ui/loading-button';
import { logOff } from '../../lib/logoff';

export function LogoffButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <LoadingButton variant="default" size="xs" onClick={() => logOff({ queryClient })} data-testid="logoff">
      {t('header.logoff')}
    </LoadingButton>
  );
}

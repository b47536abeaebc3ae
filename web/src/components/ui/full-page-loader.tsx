import { Loader } from '../lite/core';
import { useTranslation } from 'react-i18next';
import '../lite/layout-helpers.css';

/** The spinner of a page still loading, in the middle of the page (no Mantine Center: issue 24). */
export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <div className="lite-center lite-center--page" role="status" aria-live="polite">
      <Loader aria-label={t('app.loading')} />
    </div>
  );
}

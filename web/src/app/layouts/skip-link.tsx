import { useTranslation } from 'react-i18next';

/** First focusable element of every page: keyboard users jump past the header. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t('app.skipToContent')}
    </a>
  );
}

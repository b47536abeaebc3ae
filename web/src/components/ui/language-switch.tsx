import { useTranslation } from 'react-i18next';
import { currentLanguage, isLanguage, setLanguage, type Language } from '../../lib/i18n';
import { Segmented } from '../lite/segmented';

/** RU | EN in every header: a radio group that looks like a segmented control (components/lite). */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Segmented<Language>
      size="xs"
      label={t('app.language')}
      value={currentLanguage(i18n)}
      onChange={(value) => {
        // Offline before English was ever loaded: the language stays as it is.
        if (isLanguage(value)) setLanguage(value, i18n).catch(() => undefined);
      }}
      options={[
        {
          value: 'ru',
          label: (
            <span lang="ru" aria-label="Русский">
              RU
            </span>
          ),
        },
        {
          value: 'en',
          label: (
            <span lang="en" aria-label="English">
              EN
            </span>
          ),
        },
      ]}
      data-testid="language-switch"
    />
  );
}

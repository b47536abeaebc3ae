import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage, isLanguage, setLanguage } from '../../lib/i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('app.language')}
      value={currentLanguage(i18n)}
      onChange={(value) => {
        // Offline before English was ever loaded: the language stays as it is.
        if (isLanguage(value)) setLanguage(value, i18n).catch(() => undefined);
      }}
      data={[
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

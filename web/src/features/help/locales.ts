/** Texts of the help drawer, Russian and English. */
import { useMemo } from 'react';
import { useBundleT, type Bundle } from '../../components/data-table/use-bundle-t';

const ru = {
  help: {
    open: 'Справка',
    title: 'Справка',
    thisPage: 'Об этой странице',
    general: 'Общая справка',
    empty: 'Для этой страницы справки пока нет.',
    failed: 'Не удалось загрузить справку.',
    retry: 'Повторить',
    back: 'Ко всем разделам',
    loading: 'Загрузка справки…',
  },
};
const en: typeof ru = {
  help: {
    open: 'Help',
    title: 'Help',
    thisPage: 'About this page',
    general: 'General help',
    empty: 'There is no help for this page yet.',
    failed: 'The help could not be loaded.',
    retry: 'Try again',
    back: 'All sections',
    loading: 'Loading the help…',
  },
};

const bundle: Bundle = { ru, en };

export function useHelpT() {
  const { t } = useBundleT(bundle);
  return useMemo(() => (key: keyof (typeof ru)['help']) => t(`help.${key}`), [t]);
}

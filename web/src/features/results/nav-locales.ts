/**
 * The results pages' names in the navigation: the app's header shows them on every page (the
 * participant's too), so they are a bundle of their own and the pages' texts (locales.ts) come
 * with the pages.
 */
import type { Bundle } from '../../components/data-table/use-bundle-t';

export const resultsNavBundle: Bundle = {
  ru: { results: { nav: { result: 'Мои результаты', publish: 'Публикация результатов' } } },
  en: { results: { nav: { result: 'My results', publish: 'Publish results' } } },
};

/**
 * Strings of the feature's table kit. Registered into whichever i18next instance renders it (the
 * app's, or a test's), so no edit of the shared locale files is needed.
 */
import type { i18n as I18n } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export type LooseT = (key: string, options?: Record<string, unknown>) => string;

const registered = new WeakMap<I18n, Set<string>>();

/** Adds `{ [name]: resources[lng] }` to the instance once (deep merge, overwrite). */
export function ensureBundle(i18n: I18n, name: string, resources: Record<'ru' | 'en', object>) {
  const done = registered.get(i18n) ?? new Set<string>();
  if (done.has(name)) return;
  for (const lng of ['ru', 'en'] as const) {
    i18n.addResourceBundle(lng, 'translation', { [name]: resources[lng] }, true, true);
  }
  done.add(name);
  registered.set(i18n, done);
}

const kitRu = {
  loading: 'Загрузка…',
  empty: 'Ничего не найдено',
  error: 'Не удалось загрузить список: {{message}}',
  retry: 'Повторить',
  total: 'Всего: {{count}}',
  pageSize: 'Строк на странице',
  exportCsv: 'Выгрузить в CSV',
  sortBy: 'Сортировать по «{{column}}»',
  pagination: 'Страницы',
};
const kitEn: typeof kitRu = {
  loading: 'Loading…',
  empty: 'Nothing found',
  error: 'Could not load the list: {{message}}',
  retry: 'Retry',
  total: 'Total: {{count}}',
  pageSize: 'Rows per page',
  exportCsv: 'Export to CSV',
  sortBy: 'Sort by “{{column}}”',
  pagination: 'Pages',
};

export function useKitT(): LooseT {
  const { t, i18n } = useTranslation();
  ensureBundle(i18n, 'featureTable', { ru: kitRu, en: kitEn });
  return useMemo(() => (key, options) => (t as unknown as LooseT)(`featureTable.${key}`, options), [t]);
}

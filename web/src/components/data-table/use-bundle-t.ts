/**
 * Feature-local translations: a feature keeps its own resource file and registers it on the i18n
 * instance it renders with (the app's or a test's), so the shared locale files stay untouched.
 */
import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';

export type Bundle = { ru: Record<string, unknown>; en: Record<string, unknown> };
/** `t` over keys the shared `Messages` type does not know. */
export type LooseT = (key: string, options?: Record<string, unknown>) => string;

const registered = new WeakMap<I18n, Set<Bundle>>();

export function registerBundle(instance: I18n, bundle: Bundle) {
  let done = registered.get(instance);
  if (!done) registered.set(instance, (done = new Set()));
  if (done.has(bundle)) return;
  instance.addResourceBundle('ru', 'translation', bundle.ru, true, true);
  instance.addResourceBundle('en', 'translation', bundle.en, true, true);
  done.add(bundle);
}

export function useBundleT(bundle: Bundle): { t: LooseT; i18n: I18n } {
  const { t, i18n } = useTranslation();
  registerBundle(i18n, bundle);
  return { t: t as unknown as LooseT, i18n };
}

/**
 * Interface language: Russian by default, English available. Russian comes with the app (no HTTP
 * backend), so the first paint is already translated and works offline; English is a chunk of its
 * own, loaded before the first paint when it is the saved choice and when a user switches to it,
 * so the participant's path does not carry a language most never choose (docs/BENCHMARKS.md). The
 * choice lives in a cookie so a server-rendered page or the app shell could read it too.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ru, type Messages } from '../locales/ru';
import { getCookie, setCookie } from './cookies';
import type { Language } from './format';

export type { Language };
export const LANGUAGES: readonly Language[] = ['ru', 'en'];
export const DEFAULT_LANGUAGE: Language = 'ru';
export const LANGUAGE_COOKIE = 'attesta_lang';
const LANGUAGE_COOKIE_DAYS = 365;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Messages };
  }
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function detectLanguage(): Language {
  const saved = getCookie(LANGUAGE_COOKIE);
  return isLanguage(saved) ? saved : DEFAULT_LANGUAGE;
}

/** The messages of each language loaded so far: Russian is part of the app. */
const loaded: Partial<Record<Language, Messages>> = { ru };
const load: Record<Language, () => Promise<Messages>> = {
  ru: () => Promise.resolve(ru),
  en: () => import('../locales/en').then((m) => m.en),
};

/**
 * Makes a language's messages available to the instance: loads them once (English is its own chunk)
 * and merges them under what features registered already (their own bundles, in both languages,
 * come with their chunks). Rejects when the chunk cannot be loaded (offline before it was ever
 * fetched).
 */
export async function loadLanguage(lng: Language, instance: I18n = i18n): Promise<void> {
  const messages = (loaded[lng] ??= await load[lng]());
  instance.addResourceBundle(lng, 'translation', messages, true, false);
}

/**
 * An i18next instance in `lng`, with the messages of every language loaded so far (a language not
 * loaded yet shows Russian until `loadLanguage`).
 */
export function createI18n(lng: Language = detectLanguage()): I18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(
    Object.entries(loaded).map(([language, translation]) => [language, { translation }]),
  );
  void instance.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false }, // React escapes already
    initAsync: false,
    returnNull: false,
  });
  instance.on('languageChanged', (next) => {
    document.documentElement.lang = next;
  });
  document.documentElement.lang = lng;
  return instance;
}

export const i18n = createI18n();

export function currentLanguage(instance: I18n = i18n): Language {
  return isLanguage(instance.language) ? instance.language : DEFAULT_LANGUAGE;
}

/** Switches the interface language (loading its messages first) and remembers the choice for a year. */
export async function setLanguage(lng: Language, instance: I18n = i18n) {
  await loadLanguage(lng, instance);
  setCookie(LANGUAGE_COOKIE, lng, { days: LANGUAGE_COOKIE_DAYS });
  await instance.changeLanguage(lng);
}

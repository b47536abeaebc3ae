/**
 * Interface language: Russian by default, English available. Resources are bundled (no HTTP
 * backend) so the first paint is already translated and works offline. The choice lives in a
 * cookie so a server-rendered page or the app shell could read it too.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en';
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

export function createI18n(lng: Language = detectLanguage()): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: { ru: { translation: ru }, en: { translation: en } },
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

/** Switches the interface language and remembers the choice for a year. */
export async function setLanguage(lng: Language, instance: I18n = i18n) {
  setCookie(LANGUAGE_COOKIE, lng, { days: LANGUAGE_COOKIE_DAYS });
  await instance.changeLanguage(lng);
}

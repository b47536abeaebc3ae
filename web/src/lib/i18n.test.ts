import { afterEach, describe, expect, it } from 'vitest';
import { en } from '../locales/en';
import { ru } from '../locales/ru';
import { getCookie, removeCookie, setCookie } from './cookies';
import { createI18n, detectLanguage, LANGUAGE_COOKIE, setLanguage } from './i18n';

function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([key, value]) =>
    value && typeof value === 'object' ? keys(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('i18n', () => {
  afterEach(() => removeCookie(LANGUAGE_COOKIE));

  it('is Russian by default', () => {
    expect(detectLanguage()).toBe('ru');
    const i18n = createI18n();
    expect(i18n.language).toBe('ru');
    expect(i18n.t('login.tabPassword')).toBe('По логину и паролю');
    expect(i18n.t('login.tabCode')).toBe('По коду активации');
    expect(document.documentElement.lang).toBe('ru');
  });

  it('uses the Russian school terms of docs/design.md §9', () => {
    const i18n = createI18n('ru');
    expect(i18n.t('roles.organizator')).toBe('Организатор в аудитории');
    expect(i18n.t('roles.coordinator')).toBe('Школьный координатор');
    expect(i18n.t('roles.ugnik')).toBe('УГНиК');
    expect(i18n.t('login.activationCode')).toBe('Код активации');
    expect(i18n.t('account.register.parallel')).toBe('Параллель');
  });

  it('reads the saved language from the cookie', () => {
    setCookie(LANGUAGE_COOKIE, 'en', { days: 1 });
    expect(detectLanguage()).toBe('en');
    setCookie(LANGUAGE_COOKIE, 'de', { days: 1 });
    expect(detectLanguage()).toBe('ru');
  });

  it('switches language, persists it in the cookie and updates <html lang>', async () => {
    const i18n = createI18n('ru');
    await setLanguage('en', i18n);
    expect(i18n.t('login.submit')).toBe('Sign in');
    expect(getCookie(LANGUAGE_COOKIE)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('account.register.sentText', { email: 'a@b.ru' })).toContain('a@b.ru');
  });

  it("switching loads the language's messages beside a feature's own bundle registered before", async () => {
    const i18n = createI18n('ru');
    i18n.removeResourceBundle('en', 'translation');
    // What a feature's chunk does when it loads (e.g. the staff messages of the runner).
    i18n.addResourceBundle('en', 'translation', { feature: { note: 'A note' } }, true, true);
    await setLanguage('en', i18n);
    expect(i18n.t('login.submit')).toBe('Sign in');
    expect(i18n.t('feature.note' as 'app.name')).toBe('A note');
  });

  it('has the same keys in both languages, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(ru).sort());
    const i18n = createI18n('en');
    for (const key of keys(en)) expect(i18n.t(key as 'app.name')).not.toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { timeLeftWords } from './use-runner-clock';

describe('the spoken time warning', () => {
  it('says whole minutes at a threshold and minutes with seconds otherwise, in Russian and English', async () => {
    await i18n.changeLanguage('ru');
    const t = i18n.t.bind(i18n);
    const nb = '\u00a0'; // lib/format's formatDuration joins a number and its unit with a no-break space
    expect(timeLeftWords(t, 600, 'ru')).toBe('До конца работы осталось 10 минут');
    expect(timeLeftWords(t, 299, 'ru')).toBe('До конца работы осталось 5 минут');
    expect(timeLeftWords(t, 60, 'ru')).toBe('До конца работы осталась 1 минута');
    expect(timeLeftWords(t, 104, 'ru')).toBe(`До конца работы осталось 1${nb}мин 44${nb}с`);
    await i18n.changeLanguage('en');
    expect(timeLeftWords(i18n.t.bind(i18n), 104, 'en')).toBe('1\u00a0min 44\u00a0s left');
    expect(timeLeftWords(i18n.t.bind(i18n), 300, 'en')).toBe('5 minutes left');
    await i18n.changeLanguage('ru');
  });
});

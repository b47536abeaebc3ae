import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { timeLeftWords } from './use-runner-clock';

describe('the spoken time warning', () => {
  it('says whole minutes at a threshold and minutes with seconds otherwise, in Russian and English', async () => {
    await i18n.changeLanguage('ru');
    const t = i18n.t.bind(i18n);
    expect(timeLeftWords(t, 600)).toBe('До конца работы осталось 10 минут');
    expect(timeLeftWords(t, 299)).toBe('До конца работы осталось 5 минут');
    expect(timeLeftWords(t, 60)).toBe('До конца работы осталась 1 минута');
    expect(timeLeftWords(t, 104)).toBe('До конца работы осталось 1 мин 44 с');
    await i18n.changeLanguage('en');
    expect(timeLeftWords(i18n.t.bind(i18n), 104)).toBe('1 min 44 s left');
    expect(timeLeftWords(i18n.t.bind(i18n), 300)).toBe('5 minutes left');
    await i18n.changeLanguage('ru');
  });
});

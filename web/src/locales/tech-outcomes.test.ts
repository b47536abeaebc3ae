import { TECH_OUTCOMES_OF } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../lib/i18n';

// The device check is worded by the client from each check's outcome code: every outcome the
// contract lists has its own text in both languages.
describe('texts of the device check outcomes', () => {
  for (const lang of ['ru', 'en'] as const) {
    it(`every outcome has a ${lang} text`, () => {
      const i18n = createI18n(lang);
      const missing = Object.entries(TECH_OUTCOMES_OF).flatMap(([id, outcomes]) =>
        outcomes.map((o) => `start.tech.outcomes.${id}.${o}`).filter((key) => !i18n.exists(key)),
      );
      expect(missing).toEqual([]);
    });
  }
});

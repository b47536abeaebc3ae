import {
  CONTROL_HEADERS_RU,
  DETAILED_HEADERS_RU,
  PARTICIPANT_STATUS_RU,
  STATS_HEADERS_RU,
  UNFINISHED_STATUS_RU,
} from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { staffBundle } from '../../components/staff-locales';
import { reportsBundle } from './locales';

// Screen and file use the same words (issue 23, item 6): the server heads its xlsx columns with the
// contract's report words (server reports.test.ts and ugnik.test.ts read the files back); the Russian
// screens must show exactly those words for the same columns.
const ru = (bundle: { ru: Record<string, unknown> }, path: string) =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], bundle.ru) as Record<
    string,
    unknown
  >;

describe('report column words', () => {
  it.each([
    ['statistics', reportsBundle, 'reports.stats', STATS_HEADERS_RU],
    ['control report', reportsBundle, 'reports.control', CONTROL_HEADERS_RU],
    ['unfinished works’ states', reportsBundle, 'reports.control.statuses', UNFINISHED_STATUS_RU],
    ['detailed report', reportsBundle, 'reports.detailed', DETAILED_HEADERS_RU],
    ['participant statuses', staffBundle, 'staff.participants.status_', PARTICIPANT_STATUS_RU],
  ])('the Russian screen of the %s says what its file says', (_name, bundle, path, words) => {
    expect(ru(bundle, path)).toMatchObject(words);
  });
});

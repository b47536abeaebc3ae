import { unsupportedFormat, type FormatParser } from './types.js';

/**
 * The Moodle parser: Moodle XML (root <quiz>). A stub until the real parser lands here (issue 11); it must keep
 * this export and implement FormatParser (./types.ts).
 */
export const moodleParser: FormatParser = {
  name: 'moodle',
  parse() {
    throw unsupportedFormat('Moodle import is not available yet');
  },
};

import { unsupportedFormat, type FormatParser } from './types.js';

/**
 * The GIFT parser: GIFT text (.gift, .txt). A stub until the real parser lands here (issue 11); it must keep
 * this export and implement FormatParser (./types.ts).
 */
export const giftParser: FormatParser = {
  name: 'gift',
  parse() {
    throw unsupportedFormat('GIFT import is not available yet');
  },
};

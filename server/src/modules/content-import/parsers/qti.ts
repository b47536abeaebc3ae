import { unsupportedFormat, type FormatParser } from './types.js';

/**
 * The QTI parser: QTI 2.1, 2.2 and 3.0 (a package with imsmanifest.xml, or a bare item or test XML). A stub until the real parser lands here (issue 11); it must keep
 * this export and implement FormatParser (./types.ts).
 */
export const qtiParser: FormatParser = {
  name: 'qti',
  parse() {
    throw unsupportedFormat('QTI import is not available yet');
  },
};

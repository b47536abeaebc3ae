import { parseQtiFile, parseQtiPackage } from './qti-package.js';
import type { FormatParser, ParsedBatch } from './types.js';

/**
 * The QTI parser: QTI 2.1, 2.2 and 3.0 items and tests, from a content package (imsmanifest.xml)
 * or a loose item file (qti-package.ts). Each item becomes a task scored by its own response
 * processing (qti-item.ts); a test becomes a test of the batch with its sections in order.
 */
export const qtiParser: FormatParser = {
  name: 'qti',
  parse(input): ParsedBatch {
    const { details: _details, ...batch } =
      'package' in input ? parseQtiPackage(input.package) : parseQtiFile(input.name, input.bytes);
    return batch;
  },
};

import { ApiError } from '../../../lib/api-client';
import { describeApiError, type AnyT } from '../../../lib/form-errors';
import type { LooseT } from '../../../components/data-table/use-bundle-t';

/** Codes the scans screens word their own way (about scans, not files in general). */
const OWN_CODES = new Set([
  'no_file',
  'unsupported_file_type',
  'invalid_image',
  'invalid_pdf',
  'image_too_large',
  'too_many_pages',
]);

/**
 * A failed scans call in words, chosen by its status and code (never the server's message): the
 * refusals these screens meet get texts about scans; anything else the app's text of its code.
 */
export function describeScanError(error: unknown, t: LooseT, appT: AnyT): string {
  if (!(error instanceof ApiError)) return describeApiError(error, appT);
  if (OWN_CODES.has(error.code)) return t(`errors.${error.code}`);
  if (error.status === 413) return t('errors.payload_too_large');
  if (error.status === 403 && error.code !== 'csrf') return t('errors.forbidden');
  if (error.status === 404) return t('errors.gone');
  if (error.code === 'conflict') return t('errors.resolved');
  if (error.code === 'work_not_finished') return t('errors.work_not_finished');
  if (error.code === 'validation_failed') return t('errors.invalid');
  return describeApiError(error, appT);
}

/**
 * The machine-readable code printed (QR + text) on every page of an answer form, so a scanned
 * page can be matched to its exam work, page and layout:
 * `ATTESTA:B2:<registrationCode>:<examWorkId>:<page>:<layoutVersion>`.
 *
 * `B2` is the format of the code and of the sheet (corner marks, bubbles, framed boxes);
 * `layoutVersion` is 8 hex digits naming the exact layout the sheet was printed with
 * (`layoutVersionOf` in blanks.sheet.ts: a digest of the layout's JSON), so a reader compares it
 * with the layout of the work now and knows whether the bubbles still lie where it expects.
 * Forms printed before (`B1`, no layout version, no bubbles) still parse with `layoutVersion: null`.
 * Every character is in QR's alphanumeric set (digits, A–Z, `:` and `-`), which keeps the symbol
 * small: a dozen-digit registration code fits a version 3 symbol at level M.
 */
export const BLANK_CODE_PREFIX = 'ATTESTA:B2';

export interface BlankCode {
  registrationCode: string;
  examWorkId: number;
  /** 1-based page of the form. */
  page: number;
  /** 8 upper-case hex digits; null on a B1 form. */
  layoutVersion: string | null;
}

const REGISTRATION_CODE = /^[0-9A-Z-]{1,40}$/;
const LAYOUT_VERSION = /^[0-9A-F]{8}$/;
const PATTERN =
  /^ATTESTA:(?:B1:([0-9A-Z-]{1,40}):([1-9]\d{0,9}):([1-9]\d{0,3})|B2:([0-9A-Z-]{1,40}):([1-9]\d{0,9}):([1-9]\d{0,3}):([0-9A-F]{8}))$/;

export function formatBlankCode(code: Omit<BlankCode, 'layoutVersion'> & { layoutVersion: string }): string {
  if (!REGISTRATION_CODE.test(code.registrationCode))
    throw new Error('registration code unfit for a blank code');
  if (!LAYOUT_VERSION.test(code.layoutVersion)) throw new Error('layout version must be 8 hex digits');
  return `${BLANK_CODE_PREFIX}:${code.registrationCode}:${code.examWorkId}:${code.page}:${code.layoutVersion}`;
}

/** Reads a scanned code (surrounding spaces and letter case forgiven); null when it is not one. */
export function parseBlankCode(text: string): BlankCode | null {
  const match = PATTERN.exec(text.trim().toUpperCase());
  if (!match) return null;
  const b2 = match[4] !== undefined;
  const [registrationCode, work, page] = b2 ? match.slice(4, 7) : match.slice(1, 4);
  const examWorkId = Number(work);
  if (examWorkId > 2_147_483_647) return null;
  return {
    registrationCode: registrationCode!,
    examWorkId,
    page: Number(page),
    layoutVersion: b2 ? match[7]! : null,
  };
}

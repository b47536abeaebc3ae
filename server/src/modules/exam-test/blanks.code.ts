/**
 * The machine-readable code printed (QR + text) on every page of an answer form, so a scanned
 * page can be matched to its exam work and page: `ATTESTA:B1:<registrationCode>:<examWorkId>:<page>`.
 * `B1` is the format version: a later layout gets B2 and the scanner can still read old forms.
 */
export const BLANK_CODE_PREFIX = 'ATTESTA:B1';

export interface BlankCode {
  registrationCode: string;
  examWorkId: number;
  /** 1-based page of the form. */
  page: number;
}

const REGISTRATION_CODE = /^[0-9A-Z-]{1,40}$/;
const PATTERN = /^ATTESTA:B1:([0-9A-Z-]{1,40}):([1-9]\d{0,9}):([1-9]\d{0,3})$/;

export function formatBlankCode(code: BlankCode): string {
  if (!REGISTRATION_CODE.test(code.registrationCode))
    throw new Error('registration code unfit for a blank code');
  return `${BLANK_CODE_PREFIX}:${code.registrationCode}:${code.examWorkId}:${code.page}`;
}

/** Reads a scanned code (surrounding spaces and letter case forgiven); null when it is not one. */
export function parseBlankCode(text: string): BlankCode | null {
  const match = PATTERN.exec(text.trim().toUpperCase());
  if (!match) return null;
  const examWorkId = Number(match[2]);
  if (examWorkId > 2_147_483_647) return null;
  return { registrationCode: match[1]!, examWorkId, page: Number(match[3]) };
}

/**
 * What a grader reads of a stored answer value: the participant's words, never the JSON it is
 * kept in. A file answer's value is only the ids of its attachments (`{ fileIds: [...] }`): the
 * workspace shows those files by name, so the value itself says nothing here. Works on any JSON
 * (a task edited after the sitting, an old client) and never throws.
 */

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Plain text of a value: strings as typed, lists and parts one after another, ids of files left out. */
function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const parts = Array.isArray(value)
    ? value.map(plainText)
    : isRecord(value)
      ? Object.entries(value)
          .filter(([key]) => key !== 'fileIds')
          .map(([, v]) => plainText(v))
      : [];
  return parts.filter((text) => text.trim() !== '').join('\n\n');
}

/** The written part of an answer of `answerType`; '' when there is none (a file answer, nothing typed). */
export function answerText(answerType: string, value: unknown): string {
  return answerType === 'file' ? '' : plainText(value);
}

/** A reference answer as text ('' when the task has none: experts grade by the criteria). */
export const referenceText = (reference: unknown): string => plainText(reference);

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import type { FieldError } from '@attesta/contract';
import { badRequest, issueCode } from '../../lib/errors.js';

/*
 * Reading the participant-test import file (docs/participant-test-import.md). The parser never
 * sees a DOCTYPE: any `<!DOCTYPE` or `<!ENTITY` is refused before parsing, so there is no entity
 * expansion (billion laughs) and no external entity (XXE) to resolve; fast-xml-parser fetches
 * nothing anyway. Only the five predefined XML entities and character references are decoded.
 */

export const MAX_IMPORT_ROWS = 5000;
const MAX_DEPTH = 16;

const idText = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a positive integer')
  .transform(Number)
  .pipe(z.number().int().positive().max(2_147_483_647));
const namePart = z.string().trim().min(1, 'is required').max(100);

const studentSchema = z.strictObject({
  surname: namePart,
  name: namePart,
  patronymic: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v || null),
  birthDate: z.iso.date('must be a date yyyy-mm-dd').optional(),
});

const rowSchema = z
  .strictObject({
    subjectTestId: idText,
    testDate: z.iso.date('must be a date yyyy-mm-dd'),
    classId: idText.optional(),
    schoolCode: z.string().trim().min(1).max(50).optional(),
    className: z.string().trim().min(1).max(50).optional(),
    student: studentSchema,
  })
  .superRefine((row, ctx) => {
    const byPair = row.schoolCode !== undefined || row.className !== undefined;
    if (row.classId === undefined && !(row.schoolCode && row.className))
      ctx.addIssue({
        code: 'custom',
        path: ['classId'],
        message: 'give classId, or schoolCode and className',
      });
    else if (row.classId !== undefined && byPair)
      ctx.addIssue({
        code: 'custom',
        path: ['classId'],
        message: 'give classId or schoolCode + className, not both',
      });
  });
export type ImportRow = z.infer<typeof rowSchema>;

export interface ParsedImport {
  diagnosticCode: string;
  rows: ImportRow[];
}

/** Path of a field of row `n` (1-based), as reported in `errors`. */
export const rowPath = (n: number, field?: string) => `participantTest[${n}]${field ? `.${field}` : ''}`;
/**
 * An error of row `n` (1-based): the English message for developers, and `code` (a validation issue
 * or a rule) with `params` for the interface to say it in the user's language.
 */
export const rowError = (
  n: number,
  field: string | undefined,
  message: string,
  code: string,
  params: Record<string, string | number> = {},
): FieldError => ({
  path: rowPath(n, field),
  message: `row ${n}: ${message}`,
  code,
  params: { row: n, ...(field ? { field } : {}), ...params },
});

export const importFailed = (errors: FieldError[]) =>
  badRequest(
    'import_invalid',
    `The file has ${errors.length} error(s); nothing was imported. First: ${errors[0]?.path} ${errors[0]?.message}`,
    errors.slice(0, 500),
  );

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: false,
  // The format nests four levels; a deeper file is malformed for us (and a 10,000-deep one must
  // not cost a recursion per level).
  maxNestedTags: MAX_DEPTH,
  isArray: (_name, jpath) => jpath === 'participantTests.participantTest',
});

/** Parses and validates the whole file; every row's problems are reported together. */
export function parseImportXml(xml: string): ParsedImport {
  if (/<!\s*(DOCTYPE|ENTITY)/i.test(xml))
    throw badRequest('xml_doctype_forbidden', 'DOCTYPE and ENTITY declarations are not allowed in the file');
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(xml)?.[1];
  if (declared && !/^utf-?8$/i.test(declared))
    throw badRequest('xml_encoding', `The file must be UTF-8 (it declares ${declared})`);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw badRequest('xml_malformed', `The file is not well-formed XML: ${msg}`, [
      { path: `line ${line}, column ${col}`, message: msg },
    ]);
  }

  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    // The parser's own limits (nesting depth) end here as a plain Error.
    const msg = error instanceof Error ? error.message : String(error);
    throw badRequest('xml_malformed', `The file is not well-formed XML for this import: ${msg}`, [
      { path: 'participantTests', message: msg },
    ]);
  }
  const root = doc.participantTests as Record<string, unknown> | undefined;
  if (!root || typeof root !== 'object' || Object.keys(doc).length !== 1)
    throw badRequest('xml_invalid', 'The root element must be <participantTests diagnosticCode="...">');
  const diagnosticCode = typeof root.diagnosticCode === 'string' ? root.diagnosticCode.trim() : '';
  if (!diagnosticCode)
    throw badRequest('xml_invalid', 'participantTests.diagnosticCode is required', [
      { path: 'participantTests.diagnosticCode', message: 'is required' },
    ]);
  const unknown = Object.keys(root).filter((k) => k !== 'diagnosticCode' && k !== 'participantTest');
  if (unknown.length)
    throw badRequest('xml_invalid', `Unknown in <participantTests>: ${unknown.join(', ')}`, [
      { path: 'participantTests', message: `unknown attributes or elements: ${unknown.join(', ')}` },
    ]);
  const items = (root.participantTest as unknown[] | undefined) ?? [];
  if (!items.length) throw badRequest('xml_invalid', 'The file has no <participantTest> rows');
  if (items.length > MAX_IMPORT_ROWS)
    throw badRequest(
      'xml_invalid',
      `At most ${MAX_IMPORT_ROWS} rows per file (this one has ${items.length})`,
    );

  const rows: ImportRow[] = [];
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    const parsed = rowSchema.safeParse(item === '' ? {} : item);
    if (parsed.success) rows.push(parsed.data);
    else
      for (const issue of parsed.error.issues) {
        const field =
          issue.code === 'unrecognized_keys'
            ? [...issue.path, issue.keys.join(',')].join('.')
            : issue.path.join('.') || undefined;
        const { code, params } = issueCode(issue);
        errors.push(rowError(i + 1, field, issue.message, code ?? 'invalid', params));
      }
  });
  if (errors.length) throw importFailed(errors);
  return { diagnosticCode, rows };
}

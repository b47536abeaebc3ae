import type { ErrorCode, TaskDefinitionInput } from '@attesta/contract';
import { PermanentJobError } from '../../../jobs/runner.js';
import type { ImportNote } from '../notes.js';

export type { ImportNote } from '../notes.js';

/*
 * The interface every format parser of the content import implements (issue 11). A parser turns
 * one uploaded file — a bare XML or text file, or a zip package already opened and checked by the
 * safety layer (../safety) — into a ParsedBatch: items with their task (or the reason they were
 * refused) and tests with their sections. It touches no database and no network; the import job
 * validates each task with the contract's taskDefinitionSchema, stores media, sanitises html and
 * persists the whole batch in one transaction.
 *
 * Rules for parsers:
 * - read XML only through `parseXmlSafely` (../safety/xml.ts): DOCTYPE/ENTITY refused, depth
 *   limited; never read a file outside the package (use `SafePackage.resolve`);
 * - an item the parser cannot express in our task model is `outcome: 'refused'` with a note saying
 *   why; an item mapped with a loss (a feature dropped, a scoring rule approximated) is `converted`
 *   with notes; an exact mapping is `imported`. Every note is made by `note(code, params)`
 *   (../notes.ts): a code the interfaces translate and its English text;
 * - a whole file that cannot be read at all throws an ImportRefusal (`xml_malformed`,
 *   `import_invalid`, `unsupported_format`…): the import fails and nothing is created;
 * - html stays as the source wrote it (the job sanitises it); media referenced by the html are listed
 *   in `media` with `ref` exactly as written in the html, so the job can rewrite it to /api/files/{id}.
 */

/** Formats an import may come from (stored as tasks.sourceFormat). */
export const SOURCE_FORMATS = ['qti21', 'qti22', 'qti30', 'moodle', 'gift'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** What happened to one source item. */
export const ITEM_OUTCOMES = ['imported', 'converted', 'refused'] as const;
export type ItemOutcome = (typeof ITEM_OUTCOMES)[number];

/**
 * Read access to the entries of a zip package that passed the safety checks (sizes, ratios, names,
 * no links, no encryption). Every path is relative, '/'-separated, without '.' or '..' segments.
 */
export interface SafePackage {
  /** Every file entry (folders left out), in archive order. */
  readonly paths: readonly string[];
  /** Whether the package has this file (exact path, after normalisation). */
  has(path: string): boolean;
  /** The inflated bytes of a file; throws ImportRefusal `package_unsafe` for a path not in the package. */
  read(path: string): Buffer;
  /** A file as UTF-8 text (a BOM dropped); throws like `read`. */
  readText(path: string): string;
  /**
   * A reference written in a file of the package (an href, an img src), resolved against that
   * file's folder: `resolve('items/q1.xml', '../img/a.png')` → `img/a.png`. URL-decoded, query and
   * fragment dropped. Null for a reference that leaves the package, is absolute, or is a URL
   * (http:, data:…).
   */
  resolve(fromPath: string, ref: string): string | null;
}

/** The input of a parser: a bare file (XML, GIFT text) or a checked package. */
export type ParseInput = { name: string; bytes: Buffer } | { package: SafePackage };

/**
 * The task an item maps to: a task definition of the contract (answer type, content, reference,
 * scoring, maxScore, criteria) with its html. Checked by taskDefinitionSchema in the job: an item
 * whose task fails is reported `refused` with the reason.
 */
export type ParsedTask = TaskDefinitionInput & {
  /** The question's html as the source has it (media refs as written); sanitised by the job. */
  html: string;
  /** The worked solution / general feedback html, if the source has one. */
  solutionHtml?: string | null;
};

/**
 * A media file an item's html refers to. `ref` is the reference exactly as written in the html
 * (`images/a.png`, `@@PLUGINFILE@@/a.png`); the bytes come from the package (`path`) or inline
 * (`bytes`, e.g. Moodle's base64 `<file>`). `mime` is a hint; the job sniffs the bytes itself.
 */
export type ParsedMedia = {
  ref: string;
  /** A file name to store it under (default: the last segment of `path` or `ref`). */
  name?: string;
  mime?: string;
} & ({ path: string; bytes?: never } | { bytes: Buffer; path?: never });

/** One item (question) of the source. */
export interface ParsedItem {
  /**
   * Its identifier in the source (QTI identifier, Moodle question id or name, GIFT ::title::), kept
   * as the task's sourceId. Two items of one package may share it (two resources, one identifier).
   */
  sourceId: string;
  /**
   * What the item is within the file, unique there: a package's resource path (`items/q1.xml`);
   * absent: its sourceId. Tests refer to items by it.
   */
  key?: string;
  /** The file of the package it was read from (shown in the report beside the identifier). */
  file?: string;
  title: string;
  /** Category path, outermost first (a Moodle category, a QTI package folder): ['Алгебра', 'Уравнения']. */
  category?: string[];
  outcome: ItemOutcome;
  /** What was lost or changed, or why the item was refused (`note(code, params)`, ../notes.ts). */
  notes: ImportNote[];
  /** Absent when refused. */
  task?: ParsedTask;
  media: ParsedMedia[];
  /**
   * The source's identifiers of the task's choices by the ids the parser gave them (QTI: `c1` →
   * `ChoiceA`), stored with the task for the export to write back (absent: the ids are the source's).
   */
  choiceIds?: Record<string, string>;
  /** Its full marks could not be derived: the task is held out of the tests until an admin gives them. */
  fullMarksNeeded?: boolean;
}

/** A test (QTI assessmentTest; a Moodle/GIFT file has none) of items, by their keys. */
export interface ParsedTest {
  sourceId: string;
  title: string;
  /**
   * In order; the items of a section in order, by their keys (`key`, else `sourceId`). Keys not
   * among the batch's items are skipped.
   */
  sections: { title?: string; itemKeys: string[] }[];
}

/** What a parser returns for one file. */
export interface ParsedBatch {
  format: SourceFormat;
  items: ParsedItem[];
  tests: ParsedTest[];
}

/** A format parser. One per file: parsers/qti.ts, parsers/moodle.ts, parsers/gift.ts. */
export interface FormatParser {
  /** A short name for logs and tests ('qti', 'moodle', 'gift'). */
  readonly name: string;
  parse(input: ParseInput): ParsedBatch | Promise<ParsedBatch>;
}

/**
 * The whole file is refused: the import fails with this code (shown to the admin in their language)
 * and nothing is created. The message is English, for developers; keep values out of it.
 */
export class ImportRefusal extends PermanentJobError {
  constructor(code: ErrorCode, message: string) {
    super(message, code);
    this.name = 'ImportRefusal';
  }
}

/** A refusal of a file no parser handles. */
export const unsupportedFormat = (message = 'This file format is not supported') =>
  new ImportRefusal('unsupported_format', message);

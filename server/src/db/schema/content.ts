import { sql } from 'drizzle-orm';
import {
  boolean,
  primaryKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { bytea } from './files.js';
import { created, jsonValue } from './types.js';

export const subjects = pgTable('subjects', {
  id: serial().primaryKey(),
  name: text().notNull(),
  code: text().unique(),
});

/** A subject with a kind of exam: diagnostic, preprof, preschool, worker. */
export const subjectExams = pgTable(
  'subject_exams',
  {
    id: serial().primaryKey(),
    subjectId: integer()
      .notNull()
      .references(() => subjects.id),
    kind: text().notNull(),
    name: text().notNull(),
  },
  (t) => [uniqueIndex().on(t.subjectId, t.kind)],
);

export const testGroups = pgTable('test_groups', {
  id: serial().primaryKey(),
  name: text().notNull(),
});

export const subjectTests = pgTable(
  'subject_tests',
  {
    id: serial().primaryKey(),
    subjectExamId: integer()
      .notNull()
      .references(() => subjectExams.id),
    testGroupId: integer().references(() => testGroups.id),
    name: text().notNull(),
    /** Grades the test is offered for. */
    parallels: smallint().array().notNull().default([]),
    durationMinutes: integer().notNull(),
    description: text(),
    procedureHtml: text(),
    instructionHtml: text(),
    /** Mark scale: [{ mark: '5', minScore: 18 }, ...] from the highest mark down. */
    markScale: jsonb().$type<{ mark: string; minScore: number; level?: string }[]>().notNull().default([]),
    kimTemplateId: integer().references(() => kimTemplates.id),
    specificationId: integer().references(() => specifications.id),
    /** Questionnaire shown before the test (optional). */
    quizId: integer().references(() => quizzes.id),
    /** Whether tasks may be answered on a paper answer form (blank) instead of online. */
    allowBlank: boolean().notNull().default(true),
    /** Final mark when two experts disagree beyond a task's threshold: the third's mark, or the mean. */
    expertRule: text().notNull().default('third'),
    /**
     * A participant's own pauses (staff pauses are not limited): allowed at all, at most this many,
     * and at most this many minutes in total; beyond them the call answers 409 `pause_limit`.
     */
    participantPauseAllowed: boolean().notNull().default(true),
    participantPauseMaxCount: integer().notNull().default(3),
    participantPauseMaxMinutes: integer().notNull().default(15),
    /**
     * Level bands beside the mark scale: [{ level: 'высокий', minPercent: 80 }, ...] from the highest
     * down (a level may also come with a mark step of markScale).
     */
    levelBands: jsonb().$type<{ level: string; minPercent: number }[]>().notNull().default([]),
    /**
     * draft: being authored, not offered to diagnostics; published: checked (every task answerable
     * and scorable, the scale covers the max score) and offered. Seeded tests are published.
     */
    status: text().notNull().default('published'),
    /**
     * Open to guests (docs/open-tests.md): a registered guest may take it at any time and sees the
     * result at once. Only a test whose every task is scored automatically may be open.
     */
    isOpen: boolean().notNull().default(false),
    /** The runner offers a basic calculator (+ − × ÷) on this test's tasks (docs/accommodations.md). */
    allowCalculator: boolean().notNull().default(false),
    /** Identifier in the source an imported test came from (QTI assessmentTest identifier). */
    sourceId: text(),
    createdAt: created(),
    updatedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.subjectExamId)],
);

export const variants = pgTable(
  'variants',
  {
    id: serial().primaryKey(),
    subjectTestId: integer()
      .notNull()
      .references(() => subjectTests.id),
    number: integer().notNull(),
    /**
     * Versions: a variant a started work uses is never changed; an edit makes a new variant row that
     * takes over the number (the old one is superseded: kept for its works, offered to no one new).
     */
    previousVersionId: integer().references((): AnyPgColumn => variants.id),
    supersededAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex()
      .on(t.subjectTestId, t.number)
      .where(sql`superseded_at is null`),
  ],
);

/**
 * A task. `content` is what a participant may see (options, items, blanks); `reference`,
 * `scoring`, `solutionHtml` and `criteria` are secret until results are published.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: serial().primaryKey(),
    answerType: text().notNull(),
    html: text().notNull(),
    content: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    reference: jsonValue<unknown>(),
    scoring: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    solutionHtml: text(),
    /** Rubric criteria; `step` (default 1: whole points, or 0.5) is the grain of an expert's score. */
    criteria: jsonb().$type<{ code: string; text: string; maxScore: number; step?: number }[]>(),
    maxScore: numeric({ mode: 'number' }).notNull().default(1),
    /** Optional interactive container rendering the task. */
    htmlContainerId: integer(),
    /** The subject whose task pool holds the task (null: seeded tasks known only through variants). */
    subjectId: integer().references(() => subjects.id),
    /** Pool category path within the subject ("Алгебра/Уравнения"; a Moodle category). */
    category: text(),
    /** A short name for lists and pickers. */
    title: text(),
    /** Where an imported task came from: its identifier there and the format (qti21, qti22, qti30, moodle, gift). */
    sourceId: text(),
    sourceFormat: text(),
    /**
     * The source's identifiers of the task's choices (options, items, gaps' words, areas), by our
     * ids: the importer gives them short opaque ids of its own (a source id such as «correct» must
     * not reach participants); the export writes the source's back, so results keyed by them line up.
     */
    sourceChoiceIds: jsonb().$type<Record<string, string>>(),
    /**
     * Versions: a task a started work uses is never changed; an edit makes a new row (version + 1,
     * previousVersionId) and the old one is superseded. Old works keep scoring by the row they took.
     */
    version: integer().notNull().default(1),
    previousVersionId: integer().references((): AnyPgColumn => tasks.id),
    supersededAt: timestamp({ withTimezone: true }),
    createdBy: integer(),
    createdAt: created(),
    updatedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.subjectId), index().on(t.sourceId)],
);

export const variantTasks = pgTable(
  'variant_tasks',
  {
    id: serial().primaryKey(),
    variantId: integer()
      .notNull()
      .references(() => variants.id, { onDelete: 'cascade' }),
    taskId: integer()
      .notNull()
      .references(() => tasks.id),
    position: integer().notNull(),
    maxScore: numeric({ mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex().on(t.variantId, t.position), index().on(t.taskId)],
);

/** Layout template of a printed/rendered variant (header, footer, styles). */
export const kimTemplates = pgTable('kim_templates', {
  id: serial().primaryKey(),
  name: text().notNull(),
  html: text().notNull(),
  css: text(),
  updatedAt: created(),
});

/** Blueprint of a subject test: the content elements and skills its tasks check. */
export const specifications = pgTable('specifications', {
  id: serial().primaryKey(),
  name: text().notNull(),
  subjectId: integer().references(() => subjects.id),
  parallel: smallint(),
  description: text(),
});

export const specificationElements = pgTable(
  'specification_elements',
  {
    id: serial().primaryKey(),
    specificationId: integer()
      .notNull()
      .references(() => specifications.id, { onDelete: 'cascade' }),
    code: text().notNull(),
    name: text().notNull(),
    /** content | skill */
    kind: text().notNull().default('content'),
    /** The element this one refines (a tree: section → topic → element); null at the top. */
    parentId: integer().references((): AnyPgColumn => specificationElements.id, { onDelete: 'cascade' }),
    /** Order among its siblings. */
    position: integer().notNull().default(0),
  },
  (t) => [uniqueIndex().on(t.specificationId, t.code), index().on(t.parentId)],
);

/** Classifiers of a task: the specification elements it checks. */
export const taskElements = pgTable(
  'task_elements',
  {
    taskId: integer()
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    elementId: integer()
      .notNull()
      .references(() => specificationElements.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.elementId] })],
);

/** Published html texts (help, procedures, analytics snippet...). */
export const htmlTexts = pgTable(
  'html_texts',
  {
    id: serial().primaryKey(),
    code: text(),
    kind: text().notNull().default('page'),
    title: text().notNull(),
    html: text().notNull(),
    isPublished: boolean().notNull().default(true),
    updatedAt: created(),
  },
  (t) => [uniqueIndex().on(t.code)],
);

/**
 * A help section (docs/help.md): shown to the roles it names (none: everyone, visitors too) on the
 * pages it names by path prefix (none: general help on every page).
 */
export const helpSections = pgTable(
  'help_sections',
  {
    id: serial().primaryKey(),
    title: text().notNull(),
    html: text().notNull(),
    roles: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    pages: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    sortOrder: integer().notNull().default(0),
    isPublished: boolean().notNull().default(true),
    updatedAt: created(),
    updatedBy: integer(),
  },
  (t) => [index().on(t.sortOrder)],
);

/** A questionnaire attached to subject tests: questions as JSON (single/multiple choice, text). */
export const quizzes = pgTable('quizzes', {
  id: serial().primaryKey(),
  name: text().notNull(),
  questions: jsonb()
    .$type<
      {
        id: string;
        text: string;
        kind: 'single' | 'multiple' | 'text';
        options?: { id: string; text: string }[];
        required?: boolean;
      }[]
    >()
    .notNull()
    .default([]),
});

/** Interactive content package (HTML5/QTI), served sandboxed from /api/kim/htmlContainer. */
export const htmlContainers = pgTable('html_containers', {
  id: serial().primaryKey(),
  name: text().notNull(),
  currentVersion: integer().notNull().default(1),
  entry: text().notNull().default('index.html'),
  createdAt: created(),
});

export const htmlContainerResources = pgTable(
  'html_container_resources',
  {
    id: serial().primaryKey(),
    containerId: integer()
      .notNull()
      .references(() => htmlContainers.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    path: text().notNull(),
    mime: text().notNull(),
    data: bytea().notNull(),
  },
  (t) => [uniqueIndex().on(t.containerId, t.version, t.path)],
);

/**
 * One uploaded version of a container (issue 11): its own entry page (a new version may name
 * another), what it holds and who uploaded it. Old versions stay for the works that used them: a
 * participant's work keeps the version current when it started (docs/html-containers.md).
 */
export const htmlContainerVersions = pgTable(
  'html_container_versions',
  {
    id: serial().primaryKey(),
    containerId: integer()
      .notNull()
      .references(() => htmlContainers.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    entry: text().notNull(),
    fileCount: integer().notNull(),
    totalBytes: integer().notNull(),
    createdBy: integer(),
    createdAt: created(),
  },
  (t) => [uniqueIndex().on(t.containerId, t.version)],
);

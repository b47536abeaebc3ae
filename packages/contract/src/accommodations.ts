/**
 * Accommodations (issue 14, items 2 and 6; docs/accommodations.md): a student's (or worker's) profile of what the exam
 * gives them beyond the common rules — extra time (the server adds it to a work's deadline when the
 * work starts), larger text, a high-contrast or dark theme, a line reader, text-to-speech of task
 * text, rest breaks. Set by the student's school coordinator or an admin, one student or many at once;
 * a participant sees only their own (`GET /api/exam/test/participanttest/current`).
 */
import { z } from 'zod';
import { idParamSchema } from './user.js';

export const ACCOMMODATION_THEMES = ['default', 'high_contrast', 'dark'] as const;
export const accommodationThemeSchema = z
  .enum(ACCOMMODATION_THEMES)
  .describe('default: the usual colours; high_contrast: black on white, AAA contrast; dark: light on dark');
export type AccommodationTheme = z.infer<typeof accommodationThemeSchema>;

export const MAX_EXTRA_TIME_PERCENT = 200;
export const MAX_REST_BREAK_MINUTES = 120;
/** At most this many students in one bulk call. */
export const MAX_ACCOMMODATION_BULK = 500;

export const accommodationsSchema = z
  .strictObject({
    extraTimePercent: z
      .number()
      .int()
      .min(0)
      .max(MAX_EXTRA_TIME_PERCENT)
      .describe('added to the time limit of each work the student starts: limit × percent / 100'),
    largeText: z.boolean().describe('larger text and spacing in the runner'),
    theme: accommodationThemeSchema,
    lineReader: z.boolean().describe('a reading band that follows the pointer and focus'),
    textToSpeech: z.boolean().describe("read-aloud buttons on task text (the browser's speech synthesis)"),
    restBreakMinutes: z
      .number()
      .int()
      .min(0)
      .max(MAX_REST_BREAK_MINUTES)
      .describe(
        'minutes of rest breaks per work that stop the clock (POST /api/exam/test/examwork/break/start)',
      ),
    magnifier: z
      .boolean()
      .optional()
      .describe('the runner starts with the task area enlarged to 150 % (the magnifier); absent: off'),
  })
  .meta({ id: 'Accommodations' });
export type Accommodations = z.infer<typeof accommodationsSchema>;

/** The profile that changes nothing: storing it is the same as having none. */
export const NO_ACCOMMODATIONS: Accommodations = {
  extraTimePercent: 0,
  largeText: false,
  theme: 'default',
  lineReader: false,
  textToSpeech: false,
  restBreakMinutes: 0,
};

/** Whether a profile gives anything beyond the common rules. */
export const hasAccommodations = (a: Accommodations | null | undefined): a is Accommodations =>
  !!a &&
  (!!a.magnifier ||
    (Object.keys(NO_ACCOMMODATIONS) as (keyof Accommodations)[]).some((k) => a[k] !== NO_ACCOMMODATIONS[k]));

export const studentAccommodationsSchema = z
  .object({
    studentId: z.number().int(),
    accommodations: accommodationsSchema.nullable().describe('null: none'),
  })
  .meta({ id: 'StudentAccommodations' });
export type StudentAccommodations = z.infer<typeof studentAccommodationsSchema>;

export const studentAccommodationsBodySchema = z.strictObject({
  accommodations: accommodationsSchema
    .nullable()
    .describe('null (or a profile that changes nothing) clears it'),
});

export const bulkAccommodationsBodySchema = z.strictObject({
  studentIds: z
    .array(z.number().int().positive())
    .min(1)
    .max(MAX_ACCOMMODATION_BULK)
    .refine((ids) => new Set(ids).size === ids.length, 'each student once')
    .describe(`1–${MAX_ACCOMMODATION_BULK} students, each once`),
  accommodations: accommodationsSchema
    .nullable()
    .describe('null (or a profile that changes nothing) clears them'),
});
export type BulkAccommodationsBody = z.infer<typeof bulkAccommodationsBodySchema>;

export const bulkAccommodationsResultSchema = z.object({
  updated: z.number().int().describe('students (or workers) whose profile was set'),
});

export const workerAccommodationsSchema = z
  .object({
    workerId: z.number().int(),
    accommodations: accommodationsSchema.nullable().describe('null: none'),
  })
  .meta({ id: 'WorkerAccommodations' });
export type WorkerAccommodations = z.infer<typeof workerAccommodationsSchema>;

export const bulkWorkerAccommodationsBodySchema = z.strictObject({
  workerIds: z
    .array(z.number().int().positive())
    .min(1)
    .max(MAX_ACCOMMODATION_BULK)
    .refine((ids) => new Set(ids).size === ids.length, 'each worker once')
    .describe(`1–${MAX_ACCOMMODATION_BULK} workers, each once`),
  accommodations: accommodationsSchema
    .nullable()
    .describe('null (or a profile that changes nothing) clears them'),
});
export type BulkWorkerAccommodationsBody = z.infer<typeof bulkWorkerAccommodationsBodySchema>;

/** Workers (staff who take worker tests) with whether they have a profile: the admin's workers page. */
export const accommodationWorkerSchema = z
  .object({
    id: z.number().int(),
    surname: z.string(),
    name: z.string(),
    patronymic: z.string().nullable(),
    email: z.string().nullable(),
    schoolId: z.number().int().nullable(),
    schoolName: z.string().nullable(),
    positionName: z.string().nullable(),
    isBlocked: z.boolean(),
    hasAccommodations: z.boolean(),
  })
  .meta({ id: 'AccommodationWorker' });
export type AccommodationWorker = z.infer<typeof accommodationWorkerSchema>;

export const WORKER_LIST_PAGE_SIZE = 50;
export const workerListQuerySchema = z.strictObject({
  page: z
    .string()
    .regex(/^\d{1,6}$/, 'a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1))
    .optional()
    .describe('1-based'),
  pageSize: z
    .string()
    .regex(/^\d{1,3}$/, 'a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(100))
    .optional()
    .describe(`rows a page, 1–100 (${WORKER_LIST_PAGE_SIZE} unless told)`),
  schoolId: idParamSchema.optional().describe("a coordinator's is always their own school"),
  search: z.string().trim().min(1).max(100).optional().describe('part of the surname, name or e-mail'),
});
export type WorkerListQuery = z.input<typeof workerListQuerySchema>;
export const workerListSchema = z.object({
  items: z.array(accommodationWorkerSchema),
  total: z.number().int(),
});
export type WorkerList = z.infer<typeof workerListSchema>;

import { z } from 'zod';
import { LOGIN_MAX, passwordSchema } from './account.js';
import { listRequestSchema, listResponseSchema } from './paging.js';
import { roleSchema } from './roles.js';

/** Ids in paths arrive as text; anything but a positive int4 is a 400, never a database error. */
export const idParamSchema = z
  .string()
  .regex(/^\d{1,10}$/, 'a positive integer')
  .transform(Number)
  .pipe(z.number().int().positive().max(2_147_483_647));

const namePart = z.string().trim().min(1).max(100);
/** Optional name parts: an empty string clears the field like null does. */
const optionalNamePart = z
  .string()
  .trim()
  .max(100)
  .nullable()
  .transform((v) => v || null);
const emailSchema = z.email().max(200);

/** `GET /api/user/roles` item: the role catalogue. */
export const roleInfoSchema = z
  .object({ code: roleSchema, nameRu: z.string(), nameEn: z.string() })
  .meta({ id: 'RoleInfo' });
export type RoleInfo = z.infer<typeof roleInfoSchema>;

/** A row of the admin's user list. Never carries the password hash. */
export const userListItemSchema = z
  .object({
    id: z.number().int().positive(),
    login: z.string(),
    email: z.string().nullable(),
    surname: z.string().nullable(),
    name: z.string().nullable(),
    patronymic: z.string().nullable(),
    displayName: z.string(),
    roles: z.array(roleSchema),
    schoolId: z.number().int().nullable(),
    schoolName: z.string().nullable(),
    areaId: z.number().int().nullable().optional().describe("an ugnik user's area (docs/ugnik.md)"),
    isBlocked: z.boolean(),
    createdAt: z.string().describe('ISO instant'),
  })
  .meta({ id: 'UserListItem' });
export type UserListItem = z.infer<typeof userListItemSchema>;

/** `GET /api/user/{id}` and the answer of `POST /api/User`. */
export const userDetailsSchema = userListItemSchema
  .extend({
    ooId: z.number().int().nullable(),
    emailConfirmed: z.boolean(),
    emailConfirmedAt: z.string().nullable().describe('ISO instant'),
    hasPassword: z.boolean().describe('whether the account can log in with a password'),
    updatedAt: z.string().describe('ISO instant'),
  })
  .meta({ id: 'UserDetails' });
export type UserDetails = z.infer<typeof userDetailsSchema>;

export const USER_SORT_FIELDS = ['id', 'login', 'surname', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

const userSortSchema = z.strictObject({
  field: z.enum(USER_SORT_FIELDS),
  dir: z.enum(['asc', 'desc']).default('asc'),
});

export const userListFilterSchema = z.strictObject({
  search: z.string().trim().max(100).optional().describe('part of login, e-mail, surname or name'),
  role: roleSchema.optional(),
  schoolId: z.number().int().positive().optional(),
  blocked: z.boolean().optional(),
});
export type UserListFilter = z.infer<typeof userListFilterSchema>;

/** `POST /api/user/list` body: the common list request with this list's filter and sort fields. */
export const userListRequestSchema = z.strictObject({
  ...listRequestSchema.shape,
  sort: z.union([userSortSchema, z.array(userSortSchema).max(5)]).optional(),
  filter: userListFilterSchema.optional(),
});
export type UserListRequest = z.infer<typeof userListRequestSchema>;
export const userListResponseSchema = listResponseSchema(userListItemSchema);

/**
 * `POST /api/User` body. Without `id` it creates a user (`login` required); with `id` it updates
 * that user, and an omitted field keeps its value (null clears the optional ones).
 */
export const userSaveBodySchema = z
  .strictObject({
    id: z.number().int().positive().optional(),
    login: z.string().trim().min(1).max(LOGIN_MAX).optional(),
    email: emailSchema.nullable().optional(),
    surname: optionalNamePart.optional(),
    name: optionalNamePart.optional(),
    patronymic: optionalNamePart.optional(),
    roles: z.array(roleSchema).max(20).optional(),
    schoolId: z.number().int().positive().nullable().optional(),
    ooId: z.number().int().positive().nullable().optional(),
    areaId: z
      .number()
      .int()
      .positive()
      .nullable()
      .optional()
      .describe("an ugnik user's area: it sees the school diagnostics there (docs/ugnik.md)"),
    isBlocked: z.boolean().optional(),
  })
  .meta({ id: 'UserSaveBody' });
export type UserSaveBody = z.infer<typeof userSaveBodySchema>;

/** `POST /api/User` query: `pwd` sets the password; an empty value means "leave it". */
export const userSaveQuerySchema = z.strictObject({
  pwd: z.union([z.literal(''), passwordSchema]).optional(),
});

/** `POST /api/user/{id}/changepassword` body. */
export const setUserPasswordBodySchema = z.strictObject({ password: passwordSchema });

/** `PUT /api/user/save`: the only fields a user may change about themselves. */
export const profileSaveBodySchema = z
  .strictObject({
    surname: namePart.optional(),
    name: namePart.optional(),
    patronymic: optionalNamePart.optional(),
    email: emailSchema.nullable().optional(),
  })
  .meta({ id: 'ProfileSaveBody' });
export type ProfileSaveBody = z.infer<typeof profileSaveBodySchema>;

/** A calendar date `yyyy-mm-dd` that exists. */
export const calendarDateSchema = z.iso.date();

/** `PUT /api/user/saveParticipant` body: the participant's own card, filled in before the test. */
export const participantCardBodySchema = z
  .strictObject({
    surname: namePart,
    name: namePart,
    patronymic: optionalNamePart.optional(),
    birthDate: calendarDateSchema,
    classId: z.number().int().positive().nullable().optional(),
  })
  .meta({ id: 'ParticipantCardBody' });
export type ParticipantCardBody = z.infer<typeof participantCardBodySchema>;

export const participantCardSchema = z
  .object({
    participantTestId: z.number().int().positive(),
    studentId: z.number().int().positive(),
    schoolId: z.number().int().positive(),
    surname: z.string(),
    name: z.string(),
    patronymic: z.string().nullable(),
    birthDate: z.string().nullable().describe('yyyy-mm-dd'),
    classId: z.number().int().nullable(),
    className: z.string().nullable(),
  })
  .meta({ id: 'ParticipantCard' });
export type ParticipantCard = z.infer<typeof participantCardSchema>;

/**
 * The technical requirements of the device check (`GET /api/user/checkTechSpec`): one place for
 * every number, so the server's verdict and what the client shows cannot disagree.
 */
export const TECH_REQUIREMENTS = {
  /** Minimum major versions; Chromium-based browsers (Yandex, Opera...) are judged by their engine. */
  browsers: { chrome: 90, firefox: 90, safari: 14, edge: 90 },
  /** Browsers on iOS all run WebKit: judged by the iOS version. */
  ios: 14,
  /** The mobile app shell marks its user agent with this and is always supported. */
  appShellMarker: 'AttestaApp/',
  /**
   * Desktop size; an upright tablet (≥ tabletMinWidth) passes with a warning, and so does a phone
   * whose shorter side is at least phoneMinSide (the runner lays tasks out in one column).
   */
  screen: { minWidth: 1024, minHeight: 600, tabletMinWidth: 768, phoneMinSide: 320 },
  maxClockSkewMinutes: 5,
  minBandwidthMbit: 1,
  probe: { defaultBytes: 256 * 1024, maxBytes: 2 * 1024 * 1024 },
} as const;

export const TECH_CHECK_IDS = ['browser', 'screen', 'cookies', 'storage', 'clock', 'bandwidth'] as const;
export type TechCheckId = (typeof TECH_CHECK_IDS)[number];

/** What a check found, as a code: the client words it in the participant's language. */
export const TECH_CHECK_OUTCOMES = [
  'ok',
  'app',
  'unknown',
  'outdated',
  'narrow',
  'phone',
  'small',
  'off',
  'skewed',
  'unmeasured',
  'slow',
] as const;
export type TechCheckOutcome = (typeof TECH_CHECK_OUTCOMES)[number];
/** The outcomes each check can have (the server keeps to them; the web words each). */
export const TECH_OUTCOMES_OF = {
  browser: ['ok', 'app', 'unknown', 'outdated'],
  screen: ['ok', 'unknown', 'narrow', 'phone', 'small'],
  cookies: ['ok', 'off'],
  storage: ['ok', 'off'],
  clock: ['ok', 'unmeasured', 'skewed'],
  bandwidth: ['ok', 'unmeasured', 'slow'],
} as const satisfies Record<TechCheckId, readonly TechCheckOutcome[]>;

export const techCheckSchema = z.object({
  id: z.enum(TECH_CHECK_IDS),
  outcome: z
    .enum(TECH_CHECK_OUTCOMES)
    .describe('what was found (the web words it by id and outcome; `message` is the Russian wording)'),
  ok: z.boolean().describe('false blocks the test on this device'),
  warning: z.boolean().describe('acceptable, but the participant should know (message says why)'),
  value: z.string().nullable().describe('what was measured, null when it was not'),
  requirement: z.string(),
  message: z.string().describe('for the participant, in Russian'),
});
export type TechCheck = z.infer<typeof techCheckSchema>;

export const techSpecResultSchema = z
  .object({
    ok: z.boolean().describe('every check passed'),
    serverTime: z.string().describe('ISO instant of the server clock, which rules'),
    checks: z.array(techCheckSchema),
    probe: z.object({
      url: z.string().describe('GET it and time the download, then call again with downloadMs and bytes'),
      bytes: z.number().int().positive(),
    }),
  })
  .meta({ id: 'TechSpecResult' });
export type TechSpecResult = z.infer<typeof techSpecResultSchema>;

/** Query booleans arrive as text. */
const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const queryInt = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(0).max(max));

/**
 * `GET /api/user/checkTechSpec` query: what the browser measured. Not strict, so cache-busting
 * parameters added by proxies or old clients do no harm.
 */
export const techSpecQuerySchema = z.object({
  screenWidth: queryInt(100_000).optional(),
  screenHeight: queryInt(100_000).optional(),
  cookies: queryBool.optional(),
  localStorage: queryBool.optional(),
  indexedDb: queryBool.optional(),
  clientTime: z.iso.datetime({ offset: true }).optional(),
  downloadMs: queryInt(10 * 60 * 1000).optional(),
  bytes: queryInt(TECH_REQUIREMENTS.probe.maxBytes).optional(),
  probe: queryBool.optional().describe('1: answer with `bytes` bytes of binary data to time a download'),
});
export type TechSpecQuery = z.infer<typeof techSpecQuerySchema>;

/**
 * Integrations read by API key (docs/integrations.md): the admin's API keys (`/api/admin/apiKeys`,
 * ours) and the data calls machine clients make with them — the MRKO export, all results of a
 * period, the specifications of the hardware-software complex (ПАК) and the upstream instance's
 * workers. A key carries scopes (the call groups it may use) and optionally an ОО limiting what it
 * reads; a call outside them is 403.
 */
import { z } from 'zod';
import { attestaExportRowSchema, mrkoExportRowSchema } from './reports.js';

const positiveId = z.number().int().positive().max(2_147_483_647);
const instant = z.string().describe('an instant, ISO 8601 UTC');
/** Ids and numbers in a query string arrive as text. */
const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
/** Checked by the server, so that a wrong date answers `invalid_date`. */
const plainDate = z.string().max(40);

// ------------------------------------------------------------------ keys

/** The call groups a key may be allowed. */
export const API_KEY_SCOPES = ['mrko', 'reports', 'specifications', 'workers', 'push'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);

export const apiKeySchema = z
  .object({
    id: positiveId,
    name: z.string(),
    prefix: z.string().describe('the public part: the key is `atk_<prefix>_<secret>`'),
    userId: positiveId.describe('the integration user the key acts as'),
    userLogin: z.string(),
    scopes: z.array(apiKeyScopeSchema),
    ooId: positiveId.nullable().describe('results of this ОО only; null: every ОО'),
    ooName: z.string().nullable(),
    createdAt: instant,
    createdByLogin: z.string().nullable(),
    lastUsedAt: instant.nullable(),
    revokedAt: instant.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ items: z.array(apiKeySchema) });

export const apiKeyCreateBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    scopes: z
      .array(apiKeyScopeSchema)
      .min(1)
      .max(API_KEY_SCOPES.length)
      .refine((s) => new Set(s).size === s.length, 'each scope once'),
    ooId: positiveId.nullable().optional(),
  })
  .meta({ id: 'ApiKeyCreate' });
export type ApiKeyCreateBody = z.infer<typeof apiKeyCreateBodySchema>;

export const apiKeyCreatedSchema = z
  .object({
    key: apiKeySchema,
    secret: z.string().describe('the whole key `atk_<prefix>_<secret>`, shown this once and never again'),
  })
  .meta({ id: 'ApiKeyCreated' });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

// ------------------------------------------------------------------ data calls

const paging = {
  page: queryInt(1, 1_000_000).default(1).describe('page number, from 1'),
  pageSize: queryInt(1, 1000).default(100).describe('items a page, 1–1000'),
};
const pageInfo = {
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  total: z.number().int().min(0).describe('items of every page'),
};

export const integrationMrkoQuerySchema = z.strictObject({
  startDate: plainDate.optional().describe('first test day, yyyy-mm-dd (Moscow), inclusive'),
  endDate: plainDate.optional().describe('last test day, inclusive'),
  diagnosticId: queryInt(1, 2_147_483_647).optional().describe('one diagnostic'),
  format: z.enum(['json', 'csv']).default('json'),
  ...paging,
});
export type IntegrationMrkoQuery = z.infer<typeof integrationMrkoQuerySchema>;

export const integrationMrkoSchema = z
  .object({
    format: z.literal('mrko.marks'),
    version: z.literal(1),
    generatedAt: instant,
    ...pageInfo,
    items: z.array(mrkoExportRowSchema),
  })
  .meta({ id: 'IntegrationMrkoExport' });
export type IntegrationMrko = z.infer<typeof integrationMrkoSchema>;

export const integrationReportAllQuerySchema = z.strictObject({
  startDate: plainDate.describe('first test day, yyyy-mm-dd (Moscow), inclusive'),
  endDate: plainDate.describe('last test day, inclusive'),
  ...paging,
});
export type IntegrationReportAllQuery = z.infer<typeof integrationReportAllQuerySchema>;

export const integrationReportAllSchema = z
  .object({
    format: z.literal('attesta.results'),
    version: z.literal(1),
    generatedAt: instant,
    ...pageInfo,
    items: z.array(attestaExportRowSchema),
  })
  .meta({ id: 'IntegrationReportAll' });
export type IntegrationReportAll = z.infer<typeof integrationReportAllSchema>;

/** The kinds of subject exam; `system` of the ПАК call picks one. */
export const PAK_SYSTEMS = ['diagnostic', 'preprof', 'preschool', 'worker'] as const;

export const pakSpecificationsQuerySchema = z.strictObject({
  parallel: queryInt(0, 11).describe('the grade, 1–11 (0: preschool)'),
  system: z
    .enum(PAK_SYSTEMS)
    .optional()
    .describe(
      'the kind of exam (subject exam kind): diagnostic, preprof, preschool or worker; every kind if absent',
    ),
});

const specElementSchema = z.object({
  id: positiveId,
  code: z.string(),
  name: z.string(),
  kind: z.string().describe('content | skill'),
  parentId: positiveId.nullable(),
  position: z.number().int(),
});

export const pakSpecificationsSchema = z
  .object({
    parallel: z.number().int(),
    system: z.enum(PAK_SYSTEMS).nullable(),
    items: z.array(
      z.object({
        subjectTestId: positiveId,
        subjectTestName: z.string(),
        subjectCode: z.string().nullable(),
        subjectName: z.string(),
        system: z.string().describe('the subject exam kind'),
        parallels: z.array(z.number().int()),
        specification: z
          .object({
            id: positiveId,
            name: z.string(),
            parallel: z.number().int().nullable(),
            description: z.string().nullable(),
            elements: z.array(specElementSchema),
          })
          .nullable(),
      }),
    ),
  })
  .meta({ id: 'PakSpecifications' });
export type PakSpecifications = z.infer<typeof pakSpecificationsSchema>;

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const createWorkersBodySchema = z
  .strictObject({
    workers: z
      .array(
        z.strictObject({
          externalId: z
            .string()
            .trim()
            .regex(/^[\w.:-]{1,100}$/, '1–100 of letters, digits and . : _ -')
            .describe("the worker's id in the sending system; the same id updates the same worker"),
          schoolCode: z.string().trim().min(1).max(100).describe('the school, by its code'),
          position: optionalText(200).describe('the worker position, by name (created if new)'),
          surname: z.string().trim().min(1).max(100),
          name: z.string().trim().min(1).max(100),
          patronymic: optionalText(100),
          email: z.email().max(200).nullable().optional(),
          isBlocked: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(1000)
      .refine((w) => new Set(w.map((x) => x.externalId)).size === w.length, 'each externalId once'),
  })
  .meta({ id: 'CreateWorkers' });
export type CreateWorkersBody = z.infer<typeof createWorkersBodySchema>;

export const createWorkersResultSchema = z
  .object({
    created: z.number().int().min(0),
    updated: z.number().int().min(0),
    unchanged: z.number().int().min(0),
    items: z.array(
      z.object({
        externalId: z.string(),
        workerId: positiveId,
        status: z.enum(['created', 'updated', 'unchanged']),
      }),
    ),
  })
  .meta({ id: 'CreateWorkersResult' });
export type CreateWorkersResult = z.infer<typeof createWorkersResultSchema>;

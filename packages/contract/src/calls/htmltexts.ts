/** The calls of the htmltexts area (server/src/modules/htmltexts), each with its roles, meaning and schemas. */
import { okSchema } from '../account.js';
import { idPath } from '../calls-admin.js';
import {
  adminHelpListSchema,
  adminHelpSaveBodySchema,
  adminHelpSectionSchema,
  adminHtmlTextListSchema,
  adminHtmlTextSaveBodySchema,
  adminHtmlTextSchema,
} from '../help.js';
import { analyticsConfigSchema, htmlTextIdParamsSchema, publicHtmlTextSchema } from '../kim.js';
import { ADMIN, type CallTable } from '../call-schema.js';

export const HTMLTEXTS_CALLS = {
  'GET /api/htmltexts/{id}': {
    roles: 'anon',
    meaning: 'a published html text (sanitized)',
    params: htmlTextIdParamsSchema,
    response: publicHtmlTextSchema,
  },
  'GET /api/htmltexts/analytics': {
    roles: 'anon',
    meaning: 'analytics snippet configuration',
    response: analyticsConfigSchema,
  },
  'GET /api/admin/help': {
    roles: ADMIN,
    meaning: 'every help section, published or not',
    ours: true,
    response: adminHelpListSchema,
  },
  'POST /api/admin/help': {
    roles: ADMIN,
    meaning: 'create a help section',
    ours: true,
    body: adminHelpSaveBodySchema,
    response: adminHelpSectionSchema,
  },
  'PUT /api/admin/help/{id}': {
    roles: ADMIN,
    meaning: 'change a help section',
    ours: true,
    params: idPath,
    body: adminHelpSaveBodySchema,
    response: adminHelpSectionSchema,
  },
  'DELETE /api/admin/help/{id}': {
    roles: ADMIN,
    meaning: 'delete a help section',
    ours: true,
    params: idPath,
    response: okSchema,
  },
  'GET /api/admin/htmltexts': {
    roles: ADMIN,
    meaning: 'every html text, published or not',
    ours: true,
    response: adminHtmlTextListSchema,
  },
  'POST /api/admin/htmltexts': {
    roles: ADMIN,
    meaning: 'create an html text',
    ours: true,
    body: adminHtmlTextSaveBodySchema,
    response: adminHtmlTextSchema,
  },
  'PUT /api/admin/htmltexts/{id}': {
    roles: ADMIN,
    meaning: 'change an html text',
    ours: true,
    params: idPath,
    body: adminHtmlTextSaveBodySchema,
    response: adminHtmlTextSchema,
  },
} as const satisfies CallTable;

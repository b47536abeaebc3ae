/**
 * Help sections and html texts (issue 13, item 4). Help is chosen by role and page: a section names
 * the roles it is for (none: everyone, visitors too) and the pages it explains (path prefixes of the
 * web app, none: every page). `GET /api/help` gives the caller's sections, the current page's
 * first; `GET /api/help/{id}` one of them with its html. Admins write both help sections and the
 * html texts (`/api/htmltexts/{id}`: rules, privacy and the like) as sanitised rich text.
 */
import { z } from 'zod';
import { roleSchema } from './roles.js';

const instant = z.string().describe('ISO timestamp');

/** A page of the web app named by its path prefix: `/participant/work`, `/coordinator/reports`. */
export const helpPagePathSchema = z
  .string()
  .trim()
  .max(200)
  .regex(/^\/[a-z0-9/_-]*$/, 'a path of the web app, e.g. /coordinator/reports');

export const helpListQuerySchema = z.strictObject({
  page: helpPagePathSchema.optional().describe('the page the help is opened on: its sections come first'),
});

export const helpSectionSummarySchema = z
  .object({
    id: z.number().int().positive(),
    title: z.string(),
    /** Whether the section explains the page asked about (rather than being general help). */
    forPage: z.boolean(),
  })
  .meta({ id: 'HelpSectionSummary' });

export const helpListSchema = z.object({ items: z.array(helpSectionSummarySchema) }).meta({ id: 'HelpList' });
export type HelpList = z.infer<typeof helpListSchema>;

export const helpSectionSchema = z
  .object({
    id: z.number().int().positive(),
    title: z.string(),
    html: z.string().describe('sanitized'),
    updatedAt: instant,
  })
  .meta({ id: 'HelpSection' });
export type HelpSection = z.infer<typeof helpSectionSchema>;

/** The admin's view of a section: everything it is chosen by, published or not. */
export const adminHelpSectionSchema = z
  .object({
    id: z.number().int().positive(),
    title: z.string(),
    html: z.string(),
    roles: z.array(roleSchema).describe('none: everyone, visitors who are not signed in too'),
    pages: z.array(z.string()).describe('path prefixes of the web app; none: every page'),
    sortOrder: z.number().int(),
    published: z.boolean(),
    updatedAt: instant,
  })
  .meta({ id: 'AdminHelpSection' });
export type AdminHelpSection = z.infer<typeof adminHelpSectionSchema>;

export const adminHelpListSchema = z.object({ items: z.array(adminHelpSectionSchema) });

const titleText = z.string().trim().min(1).max(200);
const htmlText = z.string().max(200_000);

export const adminHelpSaveBodySchema = z
  .strictObject({
    title: titleText,
    html: htmlText,
    roles: z.array(roleSchema).max(8).default([]),
    pages: z.array(helpPagePathSchema).max(20).default([]),
    sortOrder: z.number().int().min(-1000).max(1000).default(0),
    published: z.boolean().default(true),
  })
  .meta({ id: 'AdminHelpSaveBody' });
export type AdminHelpSaveBody = z.input<typeof adminHelpSaveBodySchema>;

/** An html text as the admin edits it. */
export const adminHtmlTextSchema = z
  .object({
    id: z.number().int().positive(),
    code: z.string().nullable(),
    title: z.string(),
    html: z.string(),
    published: z.boolean(),
    updatedAt: instant,
  })
  .meta({ id: 'AdminHtmlText' });
export type AdminHtmlText = z.infer<typeof adminHtmlTextSchema>;

export const adminHtmlTextListSchema = z.object({ items: z.array(adminHtmlTextSchema) });

export const adminHtmlTextSaveBodySchema = z
  .strictObject({
    code: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'lower-case letters, digits, - and _, starting with a letter')
      .nullable()
      .default(null)
      .describe('the name pages ask for it by (`rules`, `privacy`); unique'),
    title: titleText,
    html: htmlText,
    published: z.boolean().default(true),
  })
  .meta({ id: 'AdminHtmlTextSaveBody' });
export type AdminHtmlTextSaveBody = z.input<typeof adminHtmlTextSaveBodySchema>;

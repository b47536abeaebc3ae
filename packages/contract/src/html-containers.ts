import { z } from 'zod';
import { idParamSchema } from './user.js';

/*
 * Html containers as the admin keeps them (issue 11): a container is uploaded as a zip (an entry
 * page with its scripts, styles and pictures), gets new versions (the old ones stay for the works
 * that used them), is previewed through a signed link in the runner's sandboxed frame and attached
 * to tasks (the task's `htmlContainerId`). Shapes of `/api/admin/content/containers*`; the files
 * themselves are served by `/api/kim/htmlContainer/…` (docs/html-containers.md).
 */

/** Largest zip `POST /api/admin/content/containers` (and `/{id}/versions`) accepts. */
export const CONTAINER_MAX_BYTES = 20 * 1024 * 1024;

/** One uploaded version of a container. */
export const adminHtmlContainerVersionSchema = z
  .object({
    version: z.number().int().positive(),
    entry: z.string().describe('the entry page of this version (a file at the root of the zip)'),
    fileCount: z.number().int().min(0),
    totalBytes: z.number().int().min(0),
    createdAt: z.string().describe('ISO instant (UTC, Z)'),
  })
  .meta({ id: 'AdminHtmlContainerVersion' });
export type AdminHtmlContainerVersion = z.infer<typeof adminHtmlContainerVersionSchema>;

export const adminHtmlContainerSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    currentVersion: z.number().int().positive().describe('the version new works get'),
    entry: z.string().describe('entry page of the current version'),
    createdAt: z.string().describe('ISO instant (UTC, Z)'),
    taskCount: z.number().int().min(0).describe('current tasks (not superseded) rendered by it'),
    versions: z.array(adminHtmlContainerVersionSchema).describe('every version, newest first'),
  })
  .meta({ id: 'AdminHtmlContainer' });
export type AdminHtmlContainer = z.infer<typeof adminHtmlContainerSchema>;

/**
 * The text fields of the upload form (before the file part `file`, a zip): documentation and the
 * server's check of the fields.
 */
export const containerUploadFormSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .optional()
      .describe('required for a new container; a new version may rename it'),
    entry: z
      .string()
      .trim()
      .max(200)
      .optional()
      .transform((v) => v || undefined)
      .describe(
        'the entry page, a .html file at the root of the zip; absent: index.html (or the only html file at the root)',
      ),
  })
  .describe('Form fields before the file part `file` (a .zip)')
  .meta({ id: 'ContainerUploadForm' });
export type ContainerUploadForm = z.output<typeof containerUploadFormSchema>;

export const containerIdPathSchema = z.strictObject({ id: idParamSchema });

export const containerPreviewQuerySchema = z.strictObject({
  version: idParamSchema.optional().describe('the version to preview; absent: the current one'),
});

/** `GET /api/admin/content/containers/{id}/preview`: a signed link to one version, made for the admin. */
export const containerPreviewSchema = z
  .object({
    containerId: z.number().int().positive(),
    name: z.string(),
    version: z.number().int().positive(),
    entry: z.string(),
    resources: z.array(z.string()).describe('stored paths of this version'),
    url: z
      .string()
      .describe(
        'the entry page of this version with a signature made for the caller, for the same ' +
          '`<iframe sandbox="allow-scripts">` the runner uses',
      ),
    urlExpiresAt: z.string().describe('when the signature of `url` stops working'),
  })
  .meta({ id: 'HtmlContainerPreview' });
export type ContainerPreview = z.infer<typeof containerPreviewSchema>;

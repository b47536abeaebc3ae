import type { Actor } from '../../auth/actor.js';
import type {
  AdminHelpSection,
  AdminHtmlText,
  adminHelpSaveBodySchema,
  adminHtmlTextSaveBodySchema,
  HelpList,
  HelpSection,
  Role,
} from '@attesta/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { conflict, notFound } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/participant-tests.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import * as repo from './help.repo.js';

export type { Actor };

/** Whether a section names `page` (a path of the web app): one of its prefixes, at a segment boundary. */
export const explainsPage = (pages: readonly string[], page: string) =>
  pages.some((prefix) => {
    const p = prefix.replace(/\/+$/, '') || '/';
    return p === '/' ? page === '/' : page === p || page.startsWith(`${p}/`);
  });

/**
 * `GET /api/help`: the sections the caller may read (their roles, or none for a visitor). With a
 * page, the sections naming it come first, then the general ones (naming no page); sections about
 * other pages are left out. Without one, every section the caller may read.
 */
export async function helpFor(db: Db, roles: readonly Role[], page: string | undefined): Promise<HelpList> {
  const rows = await repo.publishedHelp(db, roles);
  if (page === undefined) return { items: rows.map((r) => ({ id: r.id, title: r.title, forPage: false })) };
  const forPage = rows.filter((r) => explainsPage(r.pages, page));
  const general = rows.filter((r) => r.pages.length === 0);
  return {
    items: [
      ...forPage.map((r) => ({ id: r.id, title: r.title, forPage: true })),
      ...general.map((r) => ({ id: r.id, title: r.title, forPage: false })),
    ],
  };
}

/** `GET /api/help/{id}`: 404 for a draft, a missing section or one meant for other roles alike. */
export async function helpSection(db: Db, roles: readonly Role[], id: number): Promise<HelpSection> {
  const row = await repo.helpById(db, id);
  const readable =
    row?.isPublished && (row.roles.length === 0 || row.roles.some((r) => roles.includes(r as Role)));
  if (!row || !readable) throw notFound('No such help section');
  return {
    id: row.id,
    title: row.title,
    html: sanitizeHtml(row.html),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toAdminHelp = (r: repo.HelpRow): AdminHelpSection => ({
  id: r.id,
  title: r.title,
  html: r.html,
  roles: r.roles as Role[],
  pages: r.pages,
  sortOrder: r.sortOrder,
  published: r.isPublished,
  updatedAt: r.updatedAt.toISOString(),
});

export const adminHelpList = async (db: Db) => ({ items: (await repo.allHelp(db)).map(toAdminHelp) });

/** The stored values of a section: its html sanitised once here (and again when read). */
const helpValues = (body: z.output<typeof adminHelpSaveBodySchema>, actor: Actor): repo.HelpValues => ({
  title: body.title,
  html: sanitizeHtml(body.html),
  roles: [...new Set(body.roles)],
  pages: [...new Set(body.pages.map((p) => p.replace(/\/+$/, '') || '/'))],
  sortOrder: body.sortOrder,
  isPublished: body.published,
  updatedBy: actor.auth.userId,
});

export async function saveHelp(
  db: Db,
  actor: Actor,
  body: z.output<typeof adminHelpSaveBodySchema>,
  id?: number,
): Promise<AdminHelpSection> {
  return db.transaction(async (tx) => {
    const values = helpValues(body, actor);
    const row = id === undefined ? await repo.insertHelp(tx, values) : await repo.updateHelp(tx, id, values);
    if (!row) throw notFound('No such help section');
    await audit(tx, {
      userId: actor.auth.userId,
      ip: actor.ip,
      action: id === undefined ? 'help.create' : 'help.update',
      entity: 'help_section',
      entityId: row.id,
      details: { title: row.title, published: row.isPublished },
    });
    return toAdminHelp(row);
  });
}

export async function removeHelp(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  return db.transaction(async (tx) => {
    if (!(await repo.deleteHelp(tx, id))) throw notFound('No such help section');
    await audit(tx, {
      userId: actor.auth.userId,
      ip: actor.ip,
      action: 'help.delete',
      entity: 'help_section',
      entityId: id,
    });
    return { ok: true as const };
  });
}

const toAdminText = (r: repo.HtmlTextRow): AdminHtmlText => ({
  id: r.id,
  code: r.code,
  title: r.title,
  html: r.html,
  published: r.isPublished,
  updatedAt: r.updatedAt.toISOString(),
});

export const adminHtmlTexts = async (db: Db) => ({ items: (await repo.allHtmlTexts(db)).map(toAdminText) });

/** Creates or changes an html text; a code another text has is 409 `conflict`, nothing written. */
export async function saveHtmlText(
  db: Db,
  actor: Actor,
  body: z.output<typeof adminHtmlTextSaveBodySchema>,
  id?: number,
): Promise<AdminHtmlText> {
  try {
    return await db.transaction(async (tx) => {
      const values = {
        code: body.code,
        title: body.title,
        html: sanitizeHtml(body.html),
        isPublished: body.published,
      };
      const row =
        id === undefined ? await repo.insertHtmlText(tx, values) : await repo.updateHtmlText(tx, id, values);
      if (!row) throw notFound('No such html text');
      await audit(tx, {
        userId: actor.auth.userId,
        ip: actor.ip,
        action: id === undefined ? 'html_text.create' : 'html_text.update',
        entity: 'html_text',
        entityId: row.id,
        details: { code: row.code, title: row.title, published: row.isPublished },
      });
      return toAdminText(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('code_taken', 'Another html text has this code');
    throw err;
  }
}

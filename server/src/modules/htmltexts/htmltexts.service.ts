import { and, eq } from 'drizzle-orm';
import type { AnalyticsConfig, PublicHtmlText } from '@attesta/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { htmlTexts } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';

/**
 * A published html text by numeric id or by its code (`rules`, `privacy`...). Unpublished texts
 * answer 404 like missing ones: drafts are not public, not even their existence.
 */
export async function publishedHtmlText(db: Db, ref: string): Promise<PublicHtmlText> {
  const match = /^\d{1,10}$/.test(ref) ? eq(htmlTexts.id, Number(ref)) : eq(htmlTexts.code, ref);
  const [row] = await db
    .select()
    .from(htmlTexts)
    .where(and(match, eq(htmlTexts.isPublished, true)))
    .limit(1);
  if (!row) throw notFound('No such page');
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    title: row.title,
    html: sanitizeHtml(row.html),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The analytics counter the web client may load; off unless ANALYTICS_ID is configured. */
export const analyticsConfig = (config: Config): AnalyticsConfig =>
  config.analytics
    ? { enabled: true, provider: config.analytics.provider, id: config.analytics.id }
    : { enabled: false };

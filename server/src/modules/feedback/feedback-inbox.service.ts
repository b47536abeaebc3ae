import type { Actor } from '../../auth/actor.js';
import { aliasedTable, and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type {
  Role,
  FeedbackDetail,
  FeedbackRow,
  FeedbackUpdate,
  MyFeedback,
  FeedbackListRequest,
} from '@attesta/contract';
import { displayNameOf } from '../../auth/session-store.js';
import type { DbOrTx } from '../../db/client.js';
import { feedback, files, users } from '../../db/schema/index.js';
import { publish } from '../../events/domain-events.js';
import { audit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';

/*
 * The admins' inbox of feedback messages (new → in progress → answered) and the sender's own list.
 * An answer is told to the sender as a notification (`feedbackAnswered`, in the same transaction).
 */

export type { Actor };

const sender = aliasedTable(users, 'sender');
const answerer = aliasedTable(users, 'answerer');

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The caller's own messages, newest first. */
export async function myFeedback(db: DbOrTx, userId: number): Promise<{ items: MyFeedback[] }> {
  const rows = await db
    .select({ f: feedback, fileName: files.name })
    .from(feedback)
    .leftJoin(files, eq(files.id, feedback.fileId))
    .where(eq(feedback.userId, userId))
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(200);
  return {
    items: rows.map(({ f, fileName }) => ({
      id: f.id,
      subjectId: f.subjectId,
      text: f.text,
      page: f.page,
      fileId: f.fileId,
      fileName: f.fileId ? (fileName ?? null) : null,
      status: f.status,
      answer: f.answer,
      answeredAt: iso(f.answeredAt),
      createdAt: f.createdAt.toISOString(),
    })),
  };
}

const senderColumns = {
  id: sender.id,
  login: sender.login,
  surname: sender.surname,
  name: sender.name,
  patronymic: sender.patronymic,
};

type SenderCols = {
  id: number;
  login: string;
  surname: string | null;
  name: string | null;
  patronymic: string | null;
} | null;
const senderOf = (s: SenderCols) => (s ? { id: s.id, login: s.login, name: displayNameOf(s) } : null);

/** A page of the inbox: by status, by a part of the text or the sender's name or login; newest first. */
export async function listFeedback(
  db: DbOrTx,
  req: FeedbackListRequest & { page: number; pageSize: number },
): Promise<{ items: FeedbackRow[]; total: number }> {
  const conds: SQL[] = [];
  const status = req.filter?.status;
  if (status) conds.push(eq(feedback.status, status));
  const search = req.filter?.search?.trim();
  if (search) {
    const like = `%${escapeLike(search)}%`;
    conds.push(
      or(
        ilike(feedback.text, like),
        ilike(sender.login, like),
        sql`concat_ws(' ', ${sender.surname}, ${sender.name}, ${sender.patronymic}) ilike ${like}`,
      )!,
    );
  }
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ f: feedback, s: senderColumns })
      .from(feedback)
      .leftJoin(sender, eq(sender.id, feedback.userId))
      .where(where)
      .orderBy(desc(feedback.createdAt), desc(feedback.id))
      .limit(req.pageSize)
      .offset((req.page - 1) * req.pageSize),
    db.select({ n: count() }).from(feedback).leftJoin(sender, eq(sender.id, feedback.userId)).where(where),
  ]);
  return {
    items: rows.map(({ f, s }) => ({
      id: f.id,
      subjectId: f.subjectId,
      text: f.text.length > 300 ? `${f.text.slice(0, 300)}…` : f.text,
      page: f.page,
      status: f.status,
      sender: senderOf(s),
      hasFile: f.fileId !== null,
      createdAt: f.createdAt.toISOString(),
      updatedAt: f.updatedAt.toISOString(),
    })),
    total: total?.n ?? 0,
  };
}

/** One message with its sender (and their roles), file and answer; 404 when there is none. */
export async function feedbackDetail(db: DbOrTx, id: number): Promise<FeedbackDetail> {
  const [row] = await db
    .select({
      f: feedback,
      s: senderColumns,
      roles: sql<
        string[] | null
      >`(select array_agg(ur.role order by ur.role) from user_roles ur where ur.user_id = ${feedback.userId})`,
      fileName: files.name,
      a: {
        id: answerer.id,
        login: answerer.login,
        surname: answerer.surname,
        name: answerer.name,
        patronymic: answerer.patronymic,
      },
    })
    .from(feedback)
    .leftJoin(sender, eq(sender.id, feedback.userId))
    .leftJoin(answerer, eq(answerer.id, feedback.answeredBy))
    .leftJoin(files, eq(files.id, feedback.fileId))
    .where(eq(feedback.id, id));
  if (!row) throw notFound('No such feedback message');
  const { f, s, a } = row;
  const who = senderOf(s);
  const by = senderOf(a);
  return {
    id: f.id,
    subjectId: f.subjectId,
    text: f.text,
    page: f.page,
    status: f.status,
    sender: who ? { ...who, roles: (row.roles ?? []) as Role[] } : null,
    hasFile: f.fileId !== null,
    fileId: f.fileId,
    fileName: f.fileId ? (row.fileName ?? null) : null,
    answer: f.answer,
    answeredAt: iso(f.answeredAt),
    answeredBy: by ? { id: by.id, name: by.name } : null,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  };
}

/**
 * Sets a message in progress (or back to new) and/or answers it. An answer marks it answered and
 * tells the sender (a notification, in this transaction); the same answer again changes nothing.
 */
export async function updateFeedback(
  db: DbOrTx,
  actor: Actor,
  id: number,
  body: FeedbackUpdate,
): Promise<FeedbackDetail> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(feedback).where(eq(feedback.id, id)).for('update');
    if (!current) throw notFound('No such feedback message');
    const now = new Date();
    if (body.answer !== undefined) {
      await tx
        .update(feedback)
        .set({
          status: 'answered',
          answer: body.answer,
          answeredAt: now,
          answeredBy: actor.auth.userId,
          updatedAt: now,
        })
        .where(eq(feedback.id, id));
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'feedback.answer',
        entity: 'feedback',
        entityId: id,
        details: { from: current.status },
        ip: actor.ip,
      });
      await publish('feedbackAnswered', {
        tx,
        feedbackId: id,
        senderId: current.userId,
        answeredBy: actor.auth.userId,
      });
      return;
    }
    const status = body.status!;
    if (status === current.status) return;
    await tx.update(feedback).set({ status, updatedAt: now }).where(eq(feedback.id, id));
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'feedback.update',
      entity: 'feedback',
      entityId: id,
      details: { from: current.status, to: status },
      ip: actor.ip,
    });
  });
  return feedbackDetail(db, id);
}

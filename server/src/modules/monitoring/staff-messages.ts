import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { StaffMessage, StaffMessages } from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { staffMessages } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { publishWorkEvent } from '../../events/work-bus.js';

/*
 * Messages from the room view to one participant's sitting: staff who may watch the room send a
 * short text; it is stored, audited, listed in the sitting's event log and pushed to the runner
 * (the participant stream's `message` event). A runner that was offline reads its unread messages
 * again (GET /api/monitoring/messages) and marks each read when the participant dismisses it.
 */

type Row = typeof staffMessages.$inferSelect;

const toMessage = (m: Row): StaffMessage => ({
  id: m.id,
  participantTestId: m.participantTestId,
  text: m.text,
  at: m.createdAt.toISOString(),
  readAt: m.readAt ? m.readAt.toISOString() : null,
});

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Stores, audits and pushes a message; the scope (the room may be watched) is checked by the route. */
export async function sendStaffMessage(
  ctx: AppContext,
  auth: AuthContext,
  participantTestId: number,
  text: string,
  ip: string | null,
): Promise<StaffMessage> {
  const message = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staffMessages)
      .values({ participantTestId, authorId: auth.userId, text })
      .returning();
    await audit(tx, {
      userId: auth.userId,
      action: 'participant_test.message',
      entity: 'participant_test',
      entityId: participantTestId,
      details: { messageId: row!.id, text },
      ip,
    });
    return toMessage(row!);
  });
  const [work] = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`select id from exam_works
      where participant_test_id = ${participantTestId} and deleted_at is null limit 1`),
  );
  publishWorkEvent(ctx, participantTestId, work ? Number(work.id) : null, 'message', { message });
  return message;
}

function ownTest(auth: AuthContext): number {
  if (auth.participantTestId === null)
    throw forbidden('This session is not bound to a participant test', 'no_participant_test');
  return auth.participantTestId;
}

/** The participant's own unread messages, oldest first. */
export async function unreadMessages(ctx: AppContext, auth: AuthContext): Promise<StaffMessages> {
  const rows = await ctx.db
    .select()
    .from(staffMessages)
    .where(and(eq(staffMessages.participantTestId, ownTest(auth)), isNull(staffMessages.readAt)))
    .orderBy(asc(staffMessages.createdAt), asc(staffMessages.id));
  return { messages: rows.map(toMessage) };
}

/** The participant dismissed a message of their own sitting (404 for anyone else's). */
export async function markMessageRead(ctx: AppContext, auth: AuthContext, id: number): Promise<StaffMessage> {
  const ptId = ownTest(auth);
  const [row] = await ctx.db
    .select()
    .from(staffMessages)
    .where(and(eq(staffMessages.id, id), eq(staffMessages.participantTestId, ptId)));
  if (!row) throw notFound('No such message');
  if (row.readAt) return toMessage(row);
  const [updated] = await ctx.db
    .update(staffMessages)
    .set({ readAt: new Date() })
    .where(eq(staffMessages.id, id))
    .returning();
  return toMessage(updated!);
}

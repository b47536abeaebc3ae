import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { mailOutbox } from '../db/schema/index.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Records the message in the outbox and delivers it (SMTP) or logs it (no SMTP configured). */
  send(message: MailMessage): Promise<void>;
}

/**
 * Every message lands in `mail_outbox` first, so nothing is lost when SMTP is down and a
 * newcomer without SMTP can still find the confirmation link (in the table and in the log).
 */
export function createMailer(
  db: Db,
  log: FastifyBaseLogger,
  options: { smtpUrl?: string; from: string },
): Mailer {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  return {
    async send(message) {
      const [row] = await db.insert(mailOutbox).values(message).returning({ id: mailOutbox.id });
      if (!transport) {
        // The message (links with tokens) stays in mail_outbox; the log only points at it.
        log.info(
          { mailId: row?.id, subject: message.subject },
          'mail kept in mail_outbox (no SMTP configured)',
        );
        return;
      }
      try {
        await transport.sendMail({ from: options.from, ...message });
        if (row) await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
      } catch (err) {
        log.error({ err, mailId: row?.id }, 'mail delivery failed');
        if (row)
          await db
            .update(mailOutbox)
            .set({ error: String(err) })
            .where(eq(mailOutbox.id, row.id));
      }
    },
  };
}

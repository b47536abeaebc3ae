/**
 * Notifications: what the platform tells one user (results published, answers to grade, a queue
 * item done or failed). A notification is stored as a kind and its parameters, never as text: the
 * web writes it in the reader's language by its kind (docs/notifications.md).
 */
import { z } from 'zod';

export const NOTIFICATION_KINDS = [
  /** A diagnostic's results were published: the participant may see their result. */
  'results_published',
  /** Answers were given to this expert to grade; `count` adds up while it is unread. */
  'grading_assigned',
  /** A queue item this user created ended well (its result or file is ready). */
  'queue_done',
  /** A queue item this user created failed for good (`errorCode` says why). */
  'queue_failed',
  /** An admin answered this user's feedback message (`feedbackId`): the answer is on «Мои обращения». */
  'feedback_answered',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** Values a notification's text is written with (names, counts, codes), never text to show as is. */
export const notificationParamsSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .describe('values the text of the kind is written with (diagnostic name, count, queue item type…)');
export type NotificationParams = z.infer<typeof notificationParamsSchema>;

export const notificationSchema = z
  .object({
    id: z.number().int(),
    kind: notificationKindSchema,
    params: notificationParamsSchema,
    link: z.string().nullable().describe('a page of the web app to open (a path from its root), or null'),
    createdAt: z.string().describe('ISO instant (UTC)'),
    readAt: z.string().nullable().describe('ISO instant it was first opened, null while unread'),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notificationSchema>;

/** Items per page of `getList`. */
export const NOTIFICATION_PAGE_SIZE = 20;

export const notificationListSchema = z
  .object({
    items: z.array(notificationSchema).describe('newest first'),
    total: z.number().int().min(0),
    unread: z.number().int().min(0).describe('unread notifications of the user (all pages)'),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof notificationListSchema>;

/** `getList/{id}`: the page (1-based); 0 is the first page too. */
export const notificationPageParamSchema = z
  .string()
  .regex(/^\d{1,6}$/, 'a page number or 0')
  .transform(Number);

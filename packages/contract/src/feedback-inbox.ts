/**
 * Feedback from any screen and the admins' inbox (issue 13): a message has a status (new, in
 * progress, answered), the page it was sent from, and the admin's answer, which reaches the sender
 * as a notification (`feedback_answered`).
 */
import { z } from 'zod';
import { listRequestSchema, listResponseSchema } from './paging.js';
import { roleSchema } from './roles.js';

const instant = z.string().describe('ISO timestamp');

export const FEEDBACK_STATUSES = ['new', 'in_progress', 'answered'] as const;
export const feedbackStatusSchema = z.enum(FEEDBACK_STATUSES).meta({ id: 'FeedbackStatus' });
export type FeedbackStatus = z.infer<typeof feedbackStatusSchema>;

/** A message as its sender sees it (`GET /api/feedback/mine`). */
export const myFeedbackSchema = z
  .object({
    id: z.number().int(),
    subjectId: z.number().int(),
    text: z.string(),
    page: z.string().nullable(),
    fileId: z.number().int().nullable(),
    fileName: z.string().nullable(),
    status: feedbackStatusSchema,
    answer: z.string().nullable(),
    answeredAt: instant.nullable(),
    createdAt: instant,
  })
  .meta({ id: 'MyFeedback' });
export type MyFeedback = z.infer<typeof myFeedbackSchema>;

export const myFeedbackListSchema = z.object({ items: z.array(myFeedbackSchema).describe('newest first') });

/** A row of the admins' inbox. */
export const feedbackRowSchema = z
  .object({
    id: z.number().int(),
    subjectId: z.number().int(),
    text: z.string().describe('the message (the list may show its start)'),
    page: z.string().nullable(),
    status: feedbackStatusSchema,
    sender: z
      .object({ id: z.number().int(), name: z.string(), login: z.string() })
      .nullable()
      .describe('null when the sender’s account was deleted'),
    hasFile: z.boolean(),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'FeedbackRow' });
export type FeedbackRow = z.infer<typeof feedbackRowSchema>;

export const feedbackListRequestSchema = listRequestSchema.extend({
  filter: z
    .strictObject({
      status: feedbackStatusSchema.optional(),
      search: z.string().trim().max(200).optional().describe('part of the text, the sender’s name or login'),
    })
    .optional(),
});
export type FeedbackListRequest = z.input<typeof feedbackListRequestSchema>;
export const feedbackListSchema = listResponseSchema(feedbackRowSchema);

/** One message in the inbox, with its sender, file and answer. */
export const feedbackDetailSchema = feedbackRowSchema
  .extend({
    sender: z
      .object({ id: z.number().int(), name: z.string(), login: z.string(), roles: z.array(roleSchema) })
      .nullable(),
    fileId: z.number().int().nullable().describe('download with GET /api/files/{id}'),
    fileName: z.string().nullable(),
    answer: z.string().nullable(),
    answeredAt: instant.nullable(),
    answeredBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  })
  .meta({ id: 'FeedbackDetail' });
export type FeedbackDetail = z.infer<typeof feedbackDetailSchema>;

export const feedbackUpdateSchema = z
  .strictObject({
    status: feedbackStatusSchema.optional(),
    answer: z
      .string()
      .trim()
      .min(1, 'write an answer')
      .max(4000)
      .optional()
      .describe('answering marks it answered'),
  })
  .refine((b) => b.status !== undefined || b.answer !== undefined, {
    message: 'give a status or an answer',
    path: ['status'],
  })
  .refine((b) => b.answer !== undefined || b.status !== 'answered', {
    message: 'an answered message needs an answer',
    path: ['answer'],
  })
  .refine((b) => b.answer === undefined || b.status === undefined || b.status === 'answered', {
    message: 'an answer marks the message answered',
    path: ['status'],
  });
export type FeedbackUpdate = z.infer<typeof feedbackUpdateSchema>;

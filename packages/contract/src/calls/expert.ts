/** The calls of the expert area (server/src/modules/expert), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { idPathSchema } from '../calls-participant.js';
import {
  adminExpertProfileBodySchema,
  expertAgreementQuerySchema,
  expertAgreementResponseSchema,
  expertAnswersZipQuerySchema,
  expertAssignmentParamsSchema,
  expertAssignmentSchema,
  expertCoverageListSchema,
  expertCoverageQuerySchema,
  expertDatesResponseSchema,
  expertMarksBodySchema,
  expertNextQuerySchema,
  expertNextResponseSchema,
  expertProfileSchema,
  expertQueueResponseSchema,
  subjectTestExpertsAddBodySchema,
  subjectTestExpertsSchema,
} from '../expert.js';
import { idParamSchema } from '../user.js';
import { ADMIN, type CallTable } from '../call-schema.js';

export const EXPERT_CALLS = {
  'GET /api/ParticipantTest/getExpertAnswersDates': {
    roles: ['expert', 'admin'],
    meaning: 'dates that have answers awaiting expert grading',
    query: z.strictObject({}),
    response: expertDatesResponseSchema,
  },
  'GET /api/ParticipantTest/getExpertAnswersFileForDownloader': {
    roles: ['expert', 'admin'],
    meaning: 'zip of answers and attachments to grade; query date, dateTill',
    query: expertAnswersZipQuerySchema,
    raw: 'file',
  },
  'GET /api/expert/queue': {
    roles: ['expert', 'admin'],
    meaning: 'grading queue',
    ours: true,
    response: expertQueueResponseSchema,
  },
  'GET /api/expert/next': {
    roles: ['expert'],
    meaning: 'next answer to grade',
    ours: true,
    query: expertNextQuerySchema,
    response: expertNextResponseSchema,
  },
  'GET /api/expert/assignment/{id}': {
    roles: ['expert', 'admin'],
    meaning: 'one grading assignment',
    ours: true,
    params: expertAssignmentParamsSchema,
    response: expertAssignmentSchema,
  },
  'POST /api/expert/assignment/{id}/marks': {
    roles: ['expert'],
    meaning: 'grade an own assignment by the criteria',
    ours: true,
    params: expertAssignmentParamsSchema,
    body: expertMarksBodySchema,
    response: expertAssignmentSchema,
  },
  'GET /api/expert/agreement': {
    roles: ['expert', 'admin'],
    meaning: 'inter-rater agreement',
    ours: true,
    query: expertAgreementQuerySchema,
    response: expertAgreementResponseSchema,
  },
  'GET /api/expert/coverage': {
    roles: ['admin', 'coordinator', 'ugnik'],
    meaning: "whether experts can grade the expert-graded tasks of a diagnostic's subject tests",
    ours: true,
    query: expertCoverageQuerySchema,
    response: expertCoverageListSchema,
  },
  'GET /api/admin/experts/{id}': {
    roles: ADMIN,
    meaning: "an expert's profile: subjects, subject tests, grades, daily limit",
    ours: true,
    params: idPathSchema,
    response: expertProfileSchema,
  },
  'PUT /api/admin/experts/{id}': {
    roles: ADMIN,
    meaning: 'assign an expert to subjects and subject tests',
    ours: true,
    params: idPathSchema,
    body: adminExpertProfileBodySchema,
    response: expertProfileSchema,
  },
  'GET /api/admin/subjectTests/{id}/experts': {
    roles: ADMIN,
    meaning: 'the experts who can grade a subject test',
    ours: true,
    params: idPathSchema,
    response: subjectTestExpertsSchema,
  },
  'POST /api/admin/subjectTests/{id}/experts': {
    roles: ADMIN,
    meaning: 'assign experts to a subject test',
    ours: true,
    params: idPathSchema,
    body: subjectTestExpertsAddBodySchema,
    response: subjectTestExpertsSchema,
  },
  'DELETE /api/admin/subjectTests/{id}/experts/{expertId}': {
    roles: ADMIN,
    meaning: 'take an expert off a subject test',
    ours: true,
    params: z.strictObject({ id: idParamSchema, expertId: idParamSchema }),
    response: subjectTestExpertsSchema,
  },
} as const satisfies CallTable;

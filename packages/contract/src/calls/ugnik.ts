/** The calls of the ugnik area (server/src/modules/ugnik), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { okSchema } from '../account.js';
import { listResponseSchema } from '../paging.js';
import {
  participantTestListItemSchema,
  participantTestListRequestSchema,
  participantTestListResponseSchema,
} from '../participant-test.js';
import {
  ugnikBuildingListRequestSchema,
  ugnikBuildingSchema,
  ugnikClassListRequestSchema,
  ugnikClassSchema,
  ugnikDiagnosticCreateBodySchema,
  ugnikDiagnosticListRequestSchema,
  ugnikDiagnosticListResponseSchema,
  ugnikDiagnosticSchema,
  ugnikMainSubjectTestListRequestSchema,
  ugnikMainSubjectTestSchema,
  ugnikOoListRequestSchema,
  ugnikOoSchema,
  ugnikParallelListRequestSchema,
  ugnikParallelSchema,
  ugnikParticipantCodesQuerySchema,
  ugnikParticipantSaveBodySchema,
  ugnikParticipantSaveResultSchema,
  ugnikSchoolListRequestSchema,
  ugnikSchoolSchema,
  ugnikStudentListRequestSchema,
  ugnikStudentSchema,
  ugnikSurnamesQuerySchema,
  ugnikSurnamesReportSchema,
} from '../ugnik.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const UGNIK_CALLS = {
  'POST /api/ugnik/diagnostic/create': {
    roles: ['ugnik'],
    meaning: 'create an inspection diagnostic across schools',
    body: ugnikDiagnosticCreateBodySchema,
    response: ugnikDiagnosticSchema,
  },
  'GET /api/ugnik/diagnostic/{id}': {
    roles: ['ugnik'],
    meaning: 'one diagnostic',
    params: z.object({ id: idParamSchema }),
    response: ugnikDiagnosticSchema,
  },
  'DELETE /api/ugnik/diagnostic/{id}': {
    roles: ['ugnik'],
    meaning: 'delete a diagnostic that has no exam works',
    params: z.object({ id: idParamSchema }),
    response: okSchema,
  },
  'POST /api/ugnik/diagnostic/list': {
    roles: ['ugnik'],
    meaning: 'diagnostics',
    body: ugnikDiagnosticListRequestSchema,
    response: ugnikDiagnosticListResponseSchema,
  },
  'POST /api/ugnik/participantTest/save': {
    roles: ['ugnik'],
    meaning: 'register participants',
    body: ugnikParticipantSaveBodySchema,
    response: ugnikParticipantSaveResultSchema,
  },
  'GET /api/ugnik/participantTest/{id}': {
    roles: ['ugnik'],
    meaning: 'one participant test',
    params: z.object({ id: idParamSchema }),
    response: participantTestListItemSchema,
  },
  'POST /api/ugnik/participantTest/list': {
    roles: ['ugnik'],
    meaning: 'participant tests',
    body: participantTestListRequestSchema,
    response: participantTestListResponseSchema,
  },
  'DELETE /api/ugnik/participantTest/{id}': {
    roles: ['ugnik'],
    meaning: 'delete a participant test that has no exam work',
    params: z.object({ id: idParamSchema }),
    response: okSchema,
  },
  'POST /api/ugnik/building/list': {
    roles: ['ugnik'],
    meaning: 'buildings',
    body: ugnikBuildingListRequestSchema,
    response: listResponseSchema(ugnikBuildingSchema),
  },
  'POST /api/ugnik/class/list': {
    roles: ['ugnik'],
    meaning: 'classes',
    body: ugnikClassListRequestSchema,
    response: listResponseSchema(ugnikClassSchema),
  },
  'POST /api/ugnik/parallel/list': {
    roles: ['ugnik'],
    meaning: 'parallels',
    body: ugnikParallelListRequestSchema,
    response: listResponseSchema(ugnikParallelSchema),
  },
  'POST /api/ugnik/school/list': {
    roles: ['ugnik'],
    meaning: 'schools',
    body: ugnikSchoolListRequestSchema,
    response: listResponseSchema(ugnikSchoolSchema),
  },
  'POST /api/ugnik/oo/list': {
    roles: ['ugnik'],
    meaning: 'educational organisations (legal entities owning schools)',
    body: ugnikOoListRequestSchema,
    response: listResponseSchema(ugnikOoSchema),
  },
  'POST /api/ugnik/mainSubjectTest/list': {
    roles: ['ugnik'],
    meaning: 'main subject tests',
    body: ugnikMainSubjectTestListRequestSchema,
    response: listResponseSchema(ugnikMainSubjectTestSchema),
  },
  'GET /api/ugnik/reports/participantCodes': {
    roles: ['ugnik'],
    meaning: 'participant codes of a diagnostic',
    query: ugnikParticipantCodesQuerySchema,
    raw: 'file',
  },
  'GET /api/ugnik/reports/surnames': {
    roles: ['ugnik'],
    meaning: 'participants with surnames and results',
    query: ugnikSurnamesQuerySchema,
    response: ugnikSurnamesReportSchema,
  },
  'POST /api/ugnik/student/list': {
    roles: ['ugnik'],
    meaning: "students of your diagnostic's schools, to register by name",
    ours: true,
    body: ugnikStudentListRequestSchema,
    response: listResponseSchema(ugnikStudentSchema),
  },
} as const satisfies CallTable;

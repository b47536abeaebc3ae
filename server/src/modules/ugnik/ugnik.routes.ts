import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { UgnikParticipantSaveBody, UgnikStudentListRequest } from '@attesta/contract';
import { authOf, contractRoute, type RouteDocs } from '../../auth/access.js';
import { attachmentDisposition } from '../../lib/xlsx.js';
import * as reports from './reports.service.js';
import * as service from './ugnik.service.js';
import { ugnikDiagnosticInScope, ugnikParticipantTestInScope } from '../../auth/ugnik.access.js';

const tags = ['ugnik'];
const paramId = (req: FastifyRequest) => (req.params as { id: number }).id;
const queryDiagnosticId = (req: FastifyRequest) => (req.query as { diagnosticId: number }).diagnosticId;

const SCOPE =
  'Scope: diagnostics created by you, or — when your account is bound to an oo — by any ugnik of that ' +
  'oo; 403 for another’s, 404 for none. ';

function sendFile(reply: FastifyReply, file: reports.ReportFile) {
  // A Buffer goes out as-is (no serializer), so the JSON schema of 200 does not apply to it.
  const data: unknown = file.data;
  return reply
    .header('content-type', file.mime)
    .header('content-disposition', attachmentDisposition(file.fileName))
    .header('cache-control', 'no-store')
    .send(data as never);
}

/** `/api/ugnik/*`: inspection diagnostics across schools, their participants, references, reports. */
export const ugnikRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // --- diagnostics ---

  app.route({
    ...contractRoute('POST /api/ugnik/diagnostic/create', {
      summary: 'Create an inspection diagnostic across schools',
      description:
        'kind is always `inspection`, createdByRole `ugnik`. subjectTestIds: subject tests of kind ' +
        'diagnostic offered for one of the parallels; schoolIds: any existing schools; endsAt after ' +
        'startsAt (400 otherwise). code: unique (409 `code_taken`), generated `I-YYYY-XXXXXX` when absent. ' +
        'Audited (`diagnostic.create`).',
      tags,
      errors: [400, 401, 403, 409],
    }),
    handler: (req) => service.createDiagnostic(ctx, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute(
      'GET /api/ugnik/diagnostic/{id}',
      {
        summary: 'One of your diagnostics, with subject tests, schools and counts',
        description: SCOPE,
        tags,
        errors: [400, 401, 403, 404],
      },
      ugnikDiagnosticInScope(paramId),
    ),
    handler: (req) => service.getDiagnostic(ctx, req.params.id),
  });

  app.route({
    ...contractRoute(
      'DELETE /api/ugnik/diagnostic/{id}',
      {
        summary: 'Delete a diagnostic nobody has started',
        description:
          SCOPE +
          'Soft delete, with its participant tests (their sessions end). 409 `has_exam_works` once any ' +
          'exam work exists (deleted ones included). Audited (`diagnostic.delete`).',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      ugnikDiagnosticInScope(paramId),
    ),
    handler: async (req) => {
      await service.deleteDiagnostic(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute('POST /api/ugnik/diagnostic/list', {
      summary: 'Page of your diagnostics',
      description:
        SCOPE +
        'Filter: search (name or code), schoolId, from / till (days the window overlaps). ' +
        'Sort fields: id, name, code, startsAt, createdAt.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listDiagnostics(ctx, authOf(req), req.body),
  });

  // --- participants ---

  app.route({
    ...contractRoute(
      'POST /api/ugnik/participantTest/save',
      {
        summary: 'Register students for a subject test of your diagnostic',
        description:
          SCOPE +
          'Students of the diagnostic’s schools; the subject test must be one of the diagnostic and the ' +
          'date inside its window (400 otherwise, nothing saved). Idempotent per (diagnostic, subject test, ' +
          'student): a registered student keeps their participant test and codes (`created: false`). ' +
          'Audited (`participant_test.register`).',
        tags,
        errors: [400, 401, 403, 404],
      },
      ugnikDiagnosticInScope((req) => (req.body as UgnikParticipantSaveBody).diagnosticId),
    ),
    handler: (req) => service.saveParticipants(ctx, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute(
      'GET /api/ugnik/participantTest/{id}',
      {
        summary: 'One participant test of your diagnostics',
        tags,
        errors: [400, 401, 403, 404],
      },
      ugnikParticipantTestInScope(paramId),
    ),
    handler: (req) => service.getParticipantTest(ctx, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute(
      'DELETE /api/ugnik/participantTest/{id}',
      {
        summary: 'Delete a participant test nobody has started',
        description:
          'Soft delete; its sessions end. 409 `has_exam_work` once an exam work exists. Audited ' +
          '(`participant_test.delete`).',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      ugnikParticipantTestInScope(paramId),
    ),
    handler: async (req) => {
      await service.deleteParticipantTest(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute('POST /api/ugnik/participantTest/list', {
      summary: 'Page of the participants of your diagnostics',
      description:
        'Filter: diagnosticId, subjectTestId, schoolId, classId, buildingId, testDate, status, ' +
        'isImpersonal, search (name or code). Sort fields: id, testDate, participantName, className, ' +
        'schoolName, status.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listParticipants(ctx, authOf(req), req.body),
  });

  // --- reference lists across schools ---

  const referenceDocs = (summary: string): RouteDocs => ({
    summary,
    description: 'Every school’s, not only those of your diagnostics. Sorted by name unless `sort` says.',
    tags,
    errors: [400, 401, 403],
  });

  app.route({
    ...contractRoute('POST /api/ugnik/oo/list', referenceDocs('Educational organisations (filter: search)')),
    handler: (req) => service.listOo(ctx.db, req.body),
  });
  app.route({
    ...contractRoute('POST /api/ugnik/school/list', referenceDocs('Schools (filter: search, ooId)')),
    handler: (req) => service.listSchools(ctx.db, req.body),
  });
  app.route({
    ...contractRoute('POST /api/ugnik/building/list', referenceDocs('Buildings (filter: search, schoolId)')),
    handler: (req) => service.listBuildings(ctx.db, req.body),
  });
  app.route({
    ...contractRoute(
      'POST /api/ugnik/class/list',
      referenceDocs('Classes (filter: search, schoolId, buildingId, parallelId)'),
    ),
    handler: (req) => service.listClasses(ctx.db, req.body),
  });
  app.route({
    ...contractRoute(
      'POST /api/ugnik/student/list',
      {
        summary: 'Students of the schools of your diagnostic, to register by name',
        description:
          SCOPE +
          'filter.diagnosticId is required: only live students of the schools taking part in that ' +
          'diagnostic (every school when it names none) are listed, by surname and name. Filter: ' +
          'schoolId, classId, search (part of the surname, name or patronymic).',
        tags,
        errors: [400, 401, 403, 404],
      },
      ugnikDiagnosticInScope((req) => (req.body as UgnikStudentListRequest).filter.diagnosticId),
    ),
    handler: (req) => service.listStudents(ctx, req.body),
  });
  app.route({
    ...contractRoute('POST /api/ugnik/parallel/list', referenceDocs('Parallels (grades)')),
    handler: (req) => service.listParallels(ctx.db, req.body),
  });
  app.route({
    ...contractRoute(
      'POST /api/ugnik/mainSubjectTest/list',
      referenceDocs(
        'Subject tests usable for inspections (kind diagnostic; filter: search, parallelId, subjectId)',
      ),
    ),
    handler: (req) => service.listMainSubjectTests(ctx.db, req.body),
  });

  // --- reports ---

  app.route({
    ...contractRoute(
      'GET /api/ugnik/reports/participantCodes',
      {
        summary: 'Participant codes of your diagnostic (xlsx or PDF)',
        description:
          SCOPE +
          'format=xlsx (default): school, class, participant, test, date, activation and registration ' +
          'codes; format=pdf: a printable table. Sent as a download.',
        tags,
        errors: [400, 401, 403, 404],
      },
      ugnikDiagnosticInScope(queryDiagnosticId),
    ),
    handler: async (req, reply) =>
      sendFile(reply, await reports.participantCodes(ctx, req.query.diagnosticId, req.query.format)),
  });

  app.route({
    ...contractRoute(
      'GET /api/ugnik/reports/surnames',
      {
        summary: 'Participants of your diagnostic with surnames, school, class, test, status and score',
        description:
          SCOPE +
          'format=json (default) or xlsx (a download). `score` is the primary score once results exist, ' +
          'null until then.',
        tags,
        errors: [400, 401, 403, 404],
      },
      ugnikDiagnosticInScope(queryDiagnosticId),
    ),
    handler: async (req, reply) =>
      req.query.format === 'xlsx'
        ? sendFile(reply, await reports.surnamesXlsx(ctx, req.query.diagnosticId))
        : reports.surnames(ctx, req.query.diagnosticId),
  });
};

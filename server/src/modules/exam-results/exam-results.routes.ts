import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { hasRole } from '../../auth/types.js';
import { notFound } from '../../lib/errors.js';
import { changePublish, createResultQueue, enableChangePublish } from './publication.service.js';
import { findPt, resultAccess } from './results.access.js';
import {
  getResult,
  listResults,
  loadResult,
  referenceOf,
  resultVariant,
  toExamResult,
  whyNoResult,
} from './results.read.js';
import { resultDocument } from './results.document.js';
import { preprofView, preschoolView, resultJsonView } from './result-views.js';
import { registerResultJobs } from './results.service.js';

const tags = ['exam-results'];

const WHO_READS =
  'The participant reads their own participant test only once the diagnostic’s results are published ' +
  '(403 `results_not_published` before); staff in scope: admin any, a coordinator their school, an ' +
  'organizator the classes/buildings assigned, an ugnik the diagnostics of its supervision body. 404 ' +
  'unknown participant test, 404 `no_result` when the work has no result yet (see noresult).';

/** Results of exam works: reading, documents, publication, queueing (docs/design.md §2–§4, §6). */
export const examResultsRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;
  registerResultJobs();

  const originOf = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;

  app.route({
    ...contractRoute('GET /api/examresults/{id}', {
      summary: 'Result of a participant test',
      description: `\`id\` is the participant test id. ${WHO_READS} The mark and level are null while any answer awaits experts.`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: async (req) => toExamResult(await getResult(db, authOf(req), req.params.id)),
  });

  app.route({
    ...contractRoute('GET /api/examresults/variant/{id}', {
      summary: 'The variant of a result with the answers given and per-task scores',
      description:
        '`id` is the exam work id. The participant: own work, after publication (403 ' +
        '`results_not_published` before), with keys and solutions. Staff in scope: answers and scores, ' +
        'the participant’s name; keys for admins always and for others once the diagnostic window has ' +
        'closed or the results are published (`withKeys`). An expert: only works they have an ' +
        'assignment in, only the assigned tasks, anonymised (`anonCode`, no name/school) and without ' +
        'scores (blind marking), with keys. 409 `work_not_finished` for a running work.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => resultVariant(db, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('POST /api/examresults/participantTest/list', {
      summary: 'Page of results',
      description:
        'One row per result (scored or awaiting experts) in the caller’s scope: admin all, coordinator ' +
        'own school, organizator assigned classes/buildings, ugnik own diagnostics. Filter: ' +
        '`diagnosticId`, `subjectTestId`, `classId`, `status`, `search` (part of the name, a registration ' +
        'code or a verification code). Sort: `participantName` (default), `primaryScore`, `percent`, ' +
        '`computedAt`, `id`.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => listResults(db, authOf(req), req.body),
  });

  app.route({
    ...contractRoute('GET /api/examresults/noresult/{id}', {
      summary: 'Why a participant test has no result',
      description:
        '`reason`: `annulled`, `not_finished` (work running), `awaiting_grading` (finished, awaiting ' +
        'experts or scoring), `deleted_work`, `absent` (no work and the test day or window is over, or ' +
        'marked absent), `not_started`; null when the result is there. `message` in Russian. Staff in scope.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => whyNoResult(db, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/examresults/referenceByVariantTaskId/{id}', {
      summary: 'Reference answer, solution and criteria of a variant task',
      description:
        'Admin: any task. Expert: tasks they have an assignment on. Coordinator: tasks of a subject test ' +
        'their school sat in a diagnostic whose window has closed or whose results are published. ' +
        'Participant: a task of their own work’s variant, only after publication (403 ' +
        '`results_not_published`) and once the work is finished (409 `work_not_finished`). 404 unknown ' +
        'task, 403 otherwise.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => referenceOf(db, authOf(req), req.params.id),
  });

  const sendDoc = (req: FastifyRequest<{ Params: { id: number } }>, preprof: boolean) =>
    resultDocument(db, authOf(req), req.params.id, preprof, originOf(req));
  const pdfDescription =
    `Answers \`application/pdf\` (download). ${WHO_READS} Holds the totals, per-task and per-element ` +
    'tables, and the verification code as text and as a QR code of `<PUBLIC_URL or request origin>/verify/<code>`.';

  for (const preprof of [false, true]) {
    app.route({
      ...contractRoute(preprof ? 'GET /api/examresults/doc/{id}/preprof' : 'GET /api/examresults/doc/{id}', {
        summary: preprof ? 'PDF result report, pre-professional layout' : 'PDF result report',
        description: preprof
          ? `${pdfDescription} Adds the theory and practice parts (rule: see preprof/{id}).`
          : pdfDescription,
        tags,
        errors: [400, 401, 403, 404],
      }),
      handler: async (req, reply) => {
        const pdf: unknown = await sendDoc(req, preprof);
        return reply
          .type('application/pdf')
          .header(
            'content-disposition',
            `attachment; filename="result-${req.params.id}${preprof ? '-preprof' : ''}.pdf"`,
          )
          .header('cache-control', 'private, no-store')
          .send(pdf as never);
      },
    });
  }

  app.route({
    ...contractRoute('GET /api/examresults/preprof/{id}', {
      summary: 'Pre-professional exam result: theory and practice parts',
      description:
        `${WHO_READS} Split rule (\`rule\`): when any task of the variant has \`content.part\` = ` +
        '`theory` | `practice`, that decides (tasks without it are theory) — `content_part`; otherwise ' +
        'the first half of the positions (rounded up) is theory, the rest practice — `position_halves`.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: async (req) => preprofView(await getResult(db, authOf(req), req.params.id)),
  });

  app.route({
    ...contractRoute('GET /api/examresults/preschool/{id}', {
      summary: 'Preschool diagnostic result: qualitative levels, no scores',
      description:
        `${WHO_READS} Overall level: the subject test scale’s level, else a band of the percent ` +
        '(≥80 «высокий», ≥50 «средний», else «низкий»); elements and tasks by the same bands. No points leave.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: async (req) => preschoolView(await getResult(db, authOf(req), req.params.id)),
  });

  app.route({
    ...contractRoute('GET /api/examresults/changePublish/{diagnosticId}/{publish}', {
      summary: 'Publish or unpublish the results of a diagnostic',
      description:
        'State-changing GET (anti-CSRF header). Admin: any diagnostic; coordinator: only a diagnostic ' +
        'they created (publishing opens every school’s results; another coordinator: 403). `publish` = ' +
        '`true` | `false`. Keys never reach anyone who can still write (docs/design.md §3), so publishing ' +
        'is refused with 409 and the window and counts in `errors[0].params` (startsAt, endsAt, ' +
        'registered, finished, inProgress, notStarted, absent, annulled): ' +
        '`publication_participants_unfinished` while any work is not finished (no override lifts it), ' +
        '`publication_window_open` while the diagnostic window is open (an admin may insist with ' +
        '`?override=true`, audited; a coordinator sending it: 403), `grading_incomplete` while anything ' +
        'awaits experts or is not scored. Publishing sets resultsPublished/publishedAt (and ' +
        'firstPublishedAt, kept on unpublish), the scored participant tests to `published` (back to ' +
        '`scored` on unpublish) and those not started to `absent`: from then on no work of the ' +
        'diagnostic starts (`examwork/new`: 409 `results_published`). Idempotent, audited (with the ' +
        'counts and whether the window was overridden). 404 unknown diagnostic.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) =>
      changePublish(
        db,
        actorOf(req),
        req.params.diagnosticId,
        req.params.publish === 'true',
        req.query.override === 'true',
      ),
  });

  app.route({
    ...contractRoute('GET /api/examresults/enableChangePublish/{diagnosticId}', {
      summary: 'Whether the results of a diagnostic may be published now',
      description:
        '`enabled` when nothing holds publication back; otherwise `reason`, most pressing first: ' +
        '`participants_unfinished` (works not finished), `window_open`, `awaiting_grading`, `unscored`, ' +
        'with a Russian `message`. Always the window, the registrations by where they stand ' +
        '(`participants`), `overridable` (an admin may publish with `override=true`: only the open ' +
        'window holds it back), `mayPublish` and the current publication. Admin and the coordinator who ' +
        'created the diagnostic: counted over the whole diagnostic. A coordinator of a school the ' +
        'diagnostic includes reads it too (`mayPublish` false, `participantsScope` `school`: their school ' +
        'only): the admin publishes it. Otherwise 403; 404 unknown diagnostic.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => enableChangePublish(db, authOf(req), req.params.diagnosticId),
  });

  app.route({
    ...contractRoute('POST /api/ParticipantTest/createresultqueue', {
      summary: 'Queue (re-)scoring of a participant test’s work',
      description:
        'Query `participantTestId`. Admin, or a coordinator of the participant test’s school. Queues a ' +
        '`result` job (the same item while one is queued or running). 404 unknown, 403 out of scope, ' +
        '409 `no_finished_work`. Audited.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => createResultQueue(db, actorOf(req), req.query.participantTestId),
  });

  app.route({
    ...contractRoute('GET /api/ParticipantTest/getResultJson/{id}', {
      summary: 'Machine-readable result of a participant test',
      description:
        '`id` is the participant test id. Integrations (API key) any; admin any; a coordinator their ' +
        'school. 404 unknown or `no_result`.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: async (req) => {
      const auth = authOf(req);
      if (hasRole(auth, 'integration') && !hasRole(auth, 'admin', 'coordinator')) {
        const pt = await findPt(db, req.params.id);
        if (!pt) throw notFound('No such participant test');
        return resultJsonView(await loadResult(db, pt));
      }
      const { pt } = await resultAccess(db, auth, req.params.id);
      return resultJsonView(await loadResult(db, pt));
    },
  });
};

import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEVICE_HEADER, saveAnswersBodySchema } from '@attesta/contract';
import { authOf, contractRoute, type ScopeRule } from '../../auth/access.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { parseTimeSpan } from '../../lib/work-clock.js';
import * as service from './exam-work.service.js';
import { registerSweeper } from './sweeper.js';
import { fieldText, parseJsonField, partsOf, Spool } from '../../lib/multipart.js';
import { MAX_FILE_BYTES } from './upload.js';
import * as variants from './variant.service.js';

/*
 * /api/exam/test/* of the exam runner: HTTP only. Rules and transactions are in
 * exam-work.service.ts, what leaves the server in presenter.ts.
 */

const tags = ['exam-test'];
/** The runner's device id (random, kept by the client); absent for API clients. */
export function deviceIdOf(req: FastifyRequest): string | null {
  const raw = req.headers[DEVICE_HEADER];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value.slice(0, 128) : null;
}

const actorOf = (req: FastifyRequest): service.Actor => ({
  auth: authOf(req),
  ip: req.ip ?? null,
  deviceId: deviceIdOf(req),
});

/** Participant calls about "my" test need a session bound to one. */
const boundSession: ScopeRule = (_req, auth) => auth.participantTestId !== null;

/** Staff calls naming an exam work by id: 404 when absent, 403 outside the caller's schools and rooms. */
const staffWorkInScope: ScopeRule = (req, auth) =>
  service.staffReachesWork(req.server.ctx.db, auth, (req.params as { id: number }).id);

const badContentLogger = (req: FastifyRequest) => (taskId: number) =>
  req.log.warn({ taskId }, 'task content does not match its answer type schema; sent empty');

const VALUE_DOC =
  '`value` is JSON shaped by the answer type of the task (TASK_SCHEMAS[type].value): single_choice ' +
  '"optionId" ("" = none); multiple_choice ["id",...]; short_text, number, digit_sequence, extended_text a ' +
  'string; ordering ["itemId",...]; matching {"leftId":"rightId"}; cloze {"blankId":"text or optionId"}; ' +
  'file {"fileIds":[...]} (ids uploaded to this answer).';

export const examWorkRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  registerSweeper(plugin);

  // ---------------------------------------------------------------- activation code, test

  app.route({
    ...contractRoute('GET /api/exam/test/checkActivationCode/{code}', {
      summary: 'Is the code valid, for which test and when (no personal data; failures are rate-limited)',
      description:
        'Guarded like the code login: after many wrong codes from one address (or service-wide) 428 ' +
        '`proof_of_work_required` until a solved `GET /api/Account/LoginChallenge` comes in the ' +
        '`X-Proof-Of-Work` header.',
      tags,
      errors: [400, 428, 429],
    }),
    handler: (req) =>
      service.checkActivationCode(ctx, req.params.code, req.ip, req.headers['x-proof-of-work']),
  });

  app.route({
    ...contractRoute(
      'GET /api/exam/test/checkActivationCode',
      {
        summary: "Is the current session's activation code still valid",
        tags,
        errors: [401, 403],
      },
      boundSession,
    ),
    handler: (req) => service.checkOwnActivationCode(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute(
      'GET /api/exam/test/currentParticipantTest',
      {
        summary: 'The participant test bound to the session, with its diagnostic, subject test and work',
        tags,
        errors: [401, 403, 404],
      },
      boundSession,
    ),
    handler: (req) => service.currentParticipantTest(ctx, actorOf(req)),
  });

  app.route({
    ...contractRoute(
      'GET /api/exam/test/examwork/timeBefore',
      {
        summary: 'Seconds until the start window opens (server clock; 0 when open)',
        tags,
        errors: [401, 403, 404],
      },
      boundSession,
    ),
    handler: (req) => service.timeBefore(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute(
      'GET /api/exam/test/examwork/participantTest/subjecttest',
      {
        summary: 'Subject test of the current participant test',
        tags,
        errors: [401, 403, 404],
      },
      boundSession,
    ),
    handler: (req) => service.ownSubjectTest(ctx, authOf(req)),
  });

  // ---------------------------------------------------------------- the work

  app.route({
    ...contractRoute(
      'POST /api/exam/test/examwork/new',
      {
        summary: 'Start the work of the current participant test, or return the live one (idempotent)',
        description:
          `The runner sends its device id in \`${DEVICE_HEADER}\`: the first start binds the work to it and ` +
          'other devices get 409 `device_mismatch` until the organizer resets the session. 409 ' +
          '`window_not_open`, `window_closed`, `participant_test_annulled`, `work_finished`, `no_variant`, ' +
          '`blank_not_allowed`, `results_published` (the diagnostic’s results have been published, even ' +
          'if unpublished since: no work of it starts any more, docs/design.md §3).',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      boundSession,
    ),
    handler: (req) => service.startWork(ctx, actorOf(req), req.body?.answerMode),
  });

  app.route({
    ...contractRoute(
      'GET /api/exam/test/examwork/checkexistsexamwork',
      {
        summary: 'Does a live work exist for the current participant test (resume)',
        tags,
        errors: [401, 403],
      },
      boundSession,
    ),
    handler: (req) => service.workExists(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/examwork/{id}', {
      summary: 'An exam work with its saved answers and timing (own work, or staff in scope)',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.workState(ctx, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/examwork/left/{id}', {
      summary: 'Seconds left on the server clock',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.timeLeft(ctx, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('PUT /api/exam/test/examwork/finish/{examWorkId}/{reason}', {
      summary: 'Finish own work (idempotent); `timeout` counts only when the server clock says time is up',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.finishWork(ctx, actorOf(req), req.params.examWorkId, req.params.reason),
  });

  app.route({
    ...contractRoute('PUT /api/exam/test/examwork/{id}/answertype/{type}', {
      summary: 'Answer mode of the whole work: online, or blank (paper answer form, if the test allows it)',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.setWorkMode(ctx, actorOf(req), req.params.id, req.params.type),
  });

  app.route({
    ...contractRoute('PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/answertype/{type}', {
      summary: 'Answer mode of one task of the work',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) =>
      service.setTaskMode(
        ctx,
        actorOf(req),
        req.params.examWorkId,
        req.params.variantTaskId,
        req.params.type,
      ),
  });

  app.route({
    ...contractRoute('PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/flag', {
      summary: 'Flag or unflag a task of one’s own running work ("отмечено"); flags follow the work',
      description:
        'Own work only (403), on its device (409 `device_mismatch`), while it runs (409 `work_finished`, ' +
        '`work_paused`, `deadline_passed`); 400 `task_not_in_variant`. Answers the work’s flags.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) =>
      service.setFlag(ctx, actorOf(req), req.params.examWorkId, req.params.variantTaskId, req.body.flagged),
  });

  // ---------------------------------------------------------------- answers

  app.route({
    ...contractRoute('PUT /api/exam/test/saveanswer', {
      summary: 'Save one answer (idempotent, sequence-numbered); acknowledged after commit',
      description:
        `${VALUE_DOC} \`seq\` grows per (work, task): an older seq never overwrites a newer one (409 ` +
        '`stale_sequence`), the same seq and value again is a retry (200, the stored savedAt). 409 ' +
        '`work_finished`, `deadline_passed`, `work_paused`, `work_deleted`, `device_mismatch`; 400 ' +
        '`invalid_answer`, `task_not_in_variant`.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.saveAnswer(ctx, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute('PUT /api/exam/test/saveanswers', {
      summary: 'Save several answers; each applies on its own (saved, duplicate or stale)',
      description:
        `${VALUE_DOC} With \`registrationCode\` staff key in a paper form: allowed after the deadline ` +
        'and after finish, never into a deleted work (409 `work_deleted`) nor into a work still open ' +
        'online (409 `work_not_finished`); stored as answer mode blank, audited, a finished work scored ' +
        'again. A participant who never opened the work online: the body names `paper: { variantId }` ' +
        '(the variant of the booklet) instead of `examWorkId`, and the save creates the work (answer ' +
        'mode blank, finished as `paper`), writes the answers (an empty form too), audits ' +
        '(`exam_work.paper_created`, `exam_work.answers_keyed_in`), queues its scoring and answers its ' +
        '`examWorkId`; 409 `has_exam_work` when the participant test has a finished work already, ' +
        '`work_not_finished` when it has one open online, `window_not_open` before the diagnostic starts.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: async (req) => {
      const writer = await service.writerFor(ctx, actorOf(req), req.query.registrationCode);
      const body = req.body;
      return 'paper' in body
        ? service.savePaperOnly(ctx, writer, body)
        : service.saveAnswers(ctx, writer, body);
    },
  });

  await app.register(answersWithFilesRoute);

  // ---------------------------------------------------------------- pause

  app.route({
    ...contractRoute(
      'GET /api/exam/test/examwork/pause',
      {
        summary: 'Pause state of the current work',
        tags,
        errors: [401, 403, 404],
      },
      boundSession,
    ),
    handler: (req) => service.ownPauseState(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute('POST /api/exam/test/examwork/pause', {
      summary: 'Pause or resume: a participant their own work, an organizer the works of their rooms',
      description:
        'The clock stops while paused; answers are refused (409 `work_paused`). A participant cannot ' +
        'resume a pause made by staff (403 `paused_by_staff`). Staff pass `examWorkIds`; one out of scope ' +
        'and nothing changes.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => {
      const actor = actorOf(req);
      const reason = req.body.reason || null;
      if (req.body.examWorkIds) {
        if (!actor.auth.roles.includes('organizator'))
          throw forbidden('Only organizers pause or resume the works of others (examWorkIds)');
        return service.pauseByStaff(ctx, actor, req.body.examWorkIds, req.body.pause, reason);
      }
      return service.pauseOwn(ctx, actor, req.body.pause, reason);
    },
  });

  // ---------------------------------------------------------------- rest breaks

  for (const [key, start] of [
    ['POST /api/exam/test/examwork/break/start', true],
    ['POST /api/exam/test/examwork/break/end', false],
  ] as const)
    app.route({
      ...contractRoute(
        key,
        {
          summary: start ? 'Start a rest break of the accommodations profile' : 'End the rest break in force',
          description:
            "A rest break (the participant's accommodations profile, `restBreakMinutes` per work) stops " +
            'the clock like a pause without using the test’s pause allowance; answers are refused while ' +
            'it lasts (409 `work_paused`) and it ends by itself when the minutes run out. On its end the ' +
            'deadline moves on by its length, still capped by the diagnostic window. 409 `pause_limit` ' +
            'without rest break minutes or with none left; 409 `work_paused` while another pause is in force.',
          tags,
          errors: [400, 401, 403, 404, 409],
        },
        boundSession,
      ),
      handler: (req) => service.restBreak(ctx, actorOf(req), start),
    });

  // ---------------------------------------------------------------- variants

  app.route({
    ...contractRoute(
      'GET /api/exam/test/variant/current',
      {
        summary: 'Variant of the current work: tasks without reference answers, solutions or criteria',
        tags,
        errors: [401, 403, 404],
      },
      boundSession,
    ),
    handler: (req) => variants.currentVariant(ctx, authOf(req), badContentLogger(req)),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/variant/{id}', {
      summary: "A variant by id, as a participant sees it (participant: only their own work's variant)",
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => variants.variantById(ctx, authOf(req), req.params.id, badContentLogger(req)),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/variant/resolve/{id}', {
      summary: 'Variant with reference answers and solutions (participant: own, after results are published)',
      description:
        'Admin: any variant. Participant: the variant of their own live work, only after the results are ' +
        'published (403 `results_not_published`) and only once the work is finished (409 ' +
        '`work_not_finished`: keys never reach anyone who can still write); another variant 403.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => variants.resolvedVariant(ctx, authOf(req), req.params.id),
  });

  // ---------------------------------------------------------------- staff

  app.route({
    ...contractRoute(
      'DELETE /api/exam/test/examwork/{id}',
      {
        summary: 'Soft-delete an exam work (restorable); the participant may start again',
        tags,
        errors: [400, 401, 403, 404],
      },
      staffWorkInScope,
    ),
    handler: (req) => service.deleteWork(ctx, actorOf(req), req.params.id, req.query.reason || null),
  });

  app.route({
    ...contractRoute('GET /api/exam/test/examwork/ChangeTimeTill', {
      summary: 'Extend or cut the time of several works at once (all or nothing, audited)',
      description:
        '`ids`: comma-separated exam work ids; `timeSpan`: `hh:mm:ss` with an optional sign and days ' +
        '(`00:15:00`, `-00:05:00`, `1.00:00:00`). The deadline never passes the diagnostic window; a cut ' +
        'may put it in the past, and the server then finishes the work. State-changing GET: cookie ' +
        'sessions send X-Requested-With.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => {
      const delta = parseTimeSpan(req.query.timeSpan);
      if (delta === null)
        throw badRequest('invalid_time_span', 'timeSpan must look like 00:15:00 or -00:05:00', [
          { path: 'querystring.timeSpan', message: 'expected [-][d.]hh:mm:ss' },
        ]);
      return service.changeTimeOf(ctx, actorOf(req), req.query.ids, delta, req.query.reason || null);
    },
  });

  app.route({
    ...contractRoute(
      'GET /api/exam/test/getparticipanttestbyresultid/{id}',
      {
        summary: 'The participant test of a result (a result id is its exam work id)',
        tags,
        errors: [400, 401, 403, 404],
      },
      staffWorkInScope,
    ),
    handler: (req) => service.participantTestCard(ctx, req.params.id),
  });

  // ---------------------------------------------------------------- quiz

  app.route({
    ...contractRoute(
      'GET /api/exam/test/getQuizCurrentParticipantTest',
      {
        summary: 'Questionnaire of the current participant test and the answers saved so far',
        tags,
        errors: [401, 403, 404],
      },
      boundSession,
    ),
    handler: (req) => service.getQuiz(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute(
      'PUT /api/exam/test/saveQuizCurrentParticipantTest',
      {
        summary: 'Save the questionnaire answers (question id → option id(s) or text)',
        tags,
        errors: [400, 401, 403, 404],
      },
      boundSession,
    ),
    handler: (req) => service.saveQuiz(ctx, actorOf(req), req.body.answers),
  });
};

// ------------------------------------------------------------------ multipart

const FILE_FIELD = /^file:(\d{1,10})$/;
const MAX_FILES_PER_REQUEST = 40;

/**
 * Multipart is registered for this one route only. The `answers` field comes first: the work, the
 * tasks, the sizes and the quota are checked from it before any file is read, and each file then
 * streams to a temporary file within its limit (lib/multipart.ts), so a request holds one file in
 * memory at most, while it is stored.
 */
async function answersWithFilesRoute(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  await app.register(multipart, {
    limits: {
      fileSize: MAX_FILE_BYTES,
      files: MAX_FILES_PER_REQUEST,
      fields: 5,
      fieldSize: 1024 * 1024,
      parts: 50,
    },
  });
  app.route({
    ...contractRoute('POST /api/exam/test/saveanswers_with_files', {
      summary: 'Multipart: answers plus attached files, stored in one transaction',
      description:
        'Field `answers` FIRST: JSON like the saveanswers body (400 when a file comes before it). Then ' +
        "files in fields named `file:<variantTaskId>`; a file task's value lists the already attached " +
        'file ids it keeps, the new files are appended. The work, the tasks, the number and size of the ' +
        'files (maxSizeMb of the task, at most 20 MB → 413) and the storage quota of a participant ' +
        '(413 `storage_quota_exceeded`) are checked before any file is read; a refused request is ' +
        'answered at once, before the rest of its body is read. Type checked against the task and sniffed from the ' +
        'content → 415 `unsupported_file_type`; stored under the extension of its real type.',
      tags,
      errors: [400, 401, 403, 404, 409, 413, 415],
    }),
    handler: async (req) => {
      const spool = new Spool();
      try {
        const parts = partsOf(req);
        const body = parseAnswersField(await firstField(parts));
        const writer = await service.writerFor(app.ctx, actorOf(req), req.query.registrationCode);
        const plan = await service.planFileUploads(app.ctx, writer, body);
        const uploads: service.UploadedFile[] = [];
        let spooled = 0;
        for await (const part of parts) {
          const match = part.type === 'file' ? FILE_FIELD.exec(part.fieldname) : null;
          if (part.type !== 'file' || !match)
            throw badRequest(
              'validation_failed',
              `Unexpected field ${part.fieldname}: after \`answers\` come files named file:<variantTaskId>`,
            );
          const variantTaskId = Number(match[1]);
          const file = await spool.file(part, plan.limitOf(variantTaskId, spooled));
          spooled += file.size;
          uploads.push({ variantTaskId, file });
        }
        return await service.saveAnswersWithFiles(app.ctx, writer, body, uploads);
      } finally {
        await spool.cleanup();
      }
    },
  });
}

const answersMissing = () =>
  badRequest('validation_failed', 'The field `answers` must come first, before any file', [
    { path: 'answers', message: 'required as the first part of the form' },
  ]);

/** The text of the form's first part, which must be the `answers` field. */
async function firstField(parts: AsyncIterableIterator<Multipart>): Promise<string> {
  const first = await parts.next();
  if (first.done || first.value.type !== 'field' || first.value.fieldname !== 'answers')
    throw answersMissing();
  return fieldText(first.value);
}

function parseAnswersField(json: string) {
  const raw = parseJsonField('answers', json);
  const parsed = saveAnswersBodySchema.safeParse(raw);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({
      path: ['answers', ...i.path.map(String)].join('.'),
      message: i.message,
    }));
    throw badRequest(
      'validation_failed',
      `Invalid answers: ${errors[0]?.path} ${errors[0]?.message}`,
      errors,
    );
  }
  return parsed.data;
}

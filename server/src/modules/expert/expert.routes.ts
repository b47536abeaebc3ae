import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute, type ScopeRule } from '../../auth/access.js';
import { hasRole } from '../../auth/types.js';
import { ugnikOwnsDiagnostic } from '../../auth/ugnik.access.js';
import { notFound } from '../../lib/errors.js';
import { coordinatorReaches, liveDiagnostic } from '../create-diagnostic/index.js';
import { diagnosticCoverage } from './assignment.service.js';
import { attachmentDisposition } from '../../lib/file-sniff.js';
import { checkRange, expertAnswerDates, expertAnswersZip } from './answers-zip.service.js';
import { saveMarks } from './grading.service.js';
import * as workspace from './workspace.service.js';

const tags = ['expert'];

/**
 * A diagnostic's coverage is read by whoever reaches the diagnostic: an admin any, a coordinator
 * those of their school or their own, an ugnik its supervision body's. 404 unknown.
 */
const diagnosticInScope: ScopeRule = async (req, auth) => {
  const { db } = req.server.ctx;
  const id = (req.query as { diagnosticId: number }).diagnosticId;
  const diagnostic = await liveDiagnostic(db, { id });
  if (hasRole(auth, 'admin')) return true;
  if (hasRole(auth, 'coordinator') && (await coordinatorReaches(db, auth, diagnostic))) return true;
  if (hasRole(auth, 'ugnik')) {
    const mine = await ugnikOwnsDiagnostic(db, auth, id);
    if (mine === null) throw notFound('No such diagnostic');
    return mine;
  }
  return false;
};

const RULES =
  'Final mark: when rounds 1 and 2 differ by no more than the task threshold (scoring.thirdCheckThreshold, ' +
  'default 1) — their mean; otherwise a third expert (neither of the two) grades, and the final mark is the ' +
  "third expert's total (subject test expertRule 'third') or the mean of all three ('mean'). Means are " +
  'rounded to the nearest 0.5, halves up, and never exceed the maximum.';

/**
 * The expert's grading workspace (`/api/expert/*`, not in the contract) and the contract calls
 * ParticipantTest/getExpertAnswersDates and getExpertAnswersFileForDownloader.
 */
export const expertRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('GET /api/expert/queue', {
      summary: 'Grading queue: counts by subject test and school day',
      description:
        "An expert: their own assignments (open, graded, third checks). An admin: everyone's. Day = school " +
        'calendar day the work was finished.',
      tags,
      errors: [401, 403],
    }),
    handler: (req) => workspace.queue(db, authOf(req)),
  });

  app.route({
    ...contractRoute('GET /api/expert/next', {
      summary: 'The next answer to grade (anonymised)',
      description:
        'The oldest open assignment of the caller (third checks first), optionally of one subject test and ' +
        'school day: anonymous code, round, sanitized task text, criteria, solution, the answer and its files ' +
        "(download with GET /api/files/{id}), and progress. Never the participant's name, school, class or " +
        "codes, nor another expert's marks — except on a third check (round 3), whose `disagreement` gives the " +
        'marks of rounds 1 and 2 per criterion and their totals as expert 1 and expert 2 (no names, ids or ' +
        'comments); null for rounds 1 and 2. `assignment` is null when nothing is left. With nothing ' +
        'open the expert first takes up to 20 answers of their subjects that wait for an expert (by the ' +
        'rules of automatic assignment); `waiting` counts what still waits and cannot be theirs.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => workspace.nextAssignment(db, authOf(req), req.query),
  });

  app.route({
    ...contractRoute('GET /api/expert/assignment/{id}', {
      summary: 'One assignment (own; an admin: any)',
      description:
        "As in /api/expert/next, with the caller's own marks once graded. 404 unknown, 403 another expert's.",
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => workspace.getAssignment(db, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('POST /api/expert/assignment/{id}/marks', {
      summary: 'Grade an own assignment by the criteria (or correct the marks)',
      description:
        'A score for every criterion of the task, each 0..its maximum in whole steps of that criterion’s `step` ' +
        '(1 unless the task says otherwise, e.g. 0.5); an optional comment. ' +
        'The total is their sum. Marks can be corrected until the final mark is set (for rounds 1–2: until a ' +
        'third check starts); then 409 `grading_closed`. Bad marks answer 400 `invalid_marks` and change ' +
        `nothing. ${RULES} Audited (expert.marks.save / expert.marks.correct). Answers the assignment.`,
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: async (req) => {
      const auth = authOf(req);
      await saveMarks(db, { auth, ip: req.ip ?? null }, req.params.id, req.body);
      return workspace.getAssignment(db, auth, req.params.id);
    },
  });

  app.route({
    ...contractRoute('GET /api/expert/agreement', {
      summary: 'Inter-rater agreement per expert and per task',
      description:
        'Over answers graded in both rounds 1 and 2: count, exact agreement (equal totals, %), mean absolute ' +
        'difference of totals, and the share sent to a third check. An admin sees every expert; an expert ' +
        'only themselves and the answers they double-marked.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => workspace.agreement(db, authOf(req), req.query),
  });

  app.route({
    ...contractRoute(
      'GET /api/expert/coverage',
      {
        summary: "Whether experts can grade the expert-graded tasks of a diagnostic's subject tests",
        description:
          'Each subject test of the diagnostic with expert-graded tasks (extended text, file answers): their ' +
          'positions, the experts who can grade each of its grades (within the diagnostic’s grades) and the ' +
          'least of them (`experts`: fewer than 2 is no blind double marking), and the answers of finished ' +
          'works that wait for an expert no one was assigned as. Admin any diagnostic, coordinator those ' +
          'they reach, ugnik its own; 404 unknown.',
        tags,
        errors: [400, 401, 403, 404],
      },
      diagnosticInScope,
    ),
    handler: (req) => diagnosticCoverage(db, req.query.diagnosticId),
  });

  app.route({
    ...contractRoute('GET /api/ParticipantTest/getExpertAnswersDates', {
      summary: 'School days with answers awaiting expert grading',
      description:
        'An expert: days (the school calendar day the work was finished) of their own open assignments. ' +
        'An admin: days of every answer awaiting experts.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => expertAnswerDates(db, authOf(req)),
  });

  app.route({
    ...contractRoute('GET /api/ParticipantTest/getExpertAnswersFileForDownloader', {
      summary: 'Zip of answers to grade, with their files, task texts and criteria',
      description:
        'Open assignments of the caller (an admin: every open assignment, one per answer) whose work was ' +
        'finished on a school day from `date` to `dateTill` (inclusive, default `date`, at most a year). Per ' +
        'answer a folder `<anonCode>-<task position>/` with answer.txt, the attached files (neutral names), ' +
        'task.html (sanitized task text and criteria); manifest.csv (semicolon-separated, UTF-8 with BOM) ' +
        'lists anonCode, task, round, subject test, criteria maxima. Nothing identifies the participant.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: async (req, reply) => {
      const range = checkRange(req.query.date, req.query.dateTill);
      const { stream, fileName } = await expertAnswersZip(db, authOf(req), range);
      return reply
        .type('application/zip')
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', 'private, no-store')
        .send(stream as never);
    },
  });
};

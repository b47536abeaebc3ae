import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import {
  addSubjectTestExperts,
  adminExpertProfile,
  removeSubjectTestExpert,
  saveAdminExpertProfile,
  subjectTestExperts,
} from './assignment.service.js';

const tags = ['expert'];

const MATCH =
  'An expert grades a work of a subject test they are assigned to (any grade), or of a subject they ' +
  'grade when one of their grades is the work’s (its class’s grade, else the test’s grades).';

/**
 * The admin assigns experts (docs/design.md §3): from a user's page (`/api/admin/experts/{id}`: the
 * whole profile) and from a subject test's (`/api/admin/subjectTests/{id}/experts`). Audited
 * (`expert.profile.assign`); answers waiting for an expert are assigned after each change.
 */
export const expertAssignmentRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('GET /api/admin/experts/{id}', {
      summary: "An expert's profile: subjects, subject tests, grades, daily limit",
      description: `404 for a user who is not an expert. ${MATCH}`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => adminExpertProfile(db, req.params.id),
  });

  app.route({
    ...contractRoute('PUT /api/admin/experts/{id}', {
      summary: 'Assign an expert to subjects and subject tests (the whole profile)',
      description:
        'subjectIds (400 `unknown_subject` for no such subject), subjectTestIds (400 `validation_failed` ' +
        'for no such subject test), parallels 0–11, maxPerDay 1–1000 or null. 404 for a user who is not ' +
        `an expert. ${MATCH} Audited (\`expert.profile.assign\`); answers waiting for an expert are ` +
        'assigned afterwards.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => saveAdminExpertProfile(db, actorOf(req), req.params.id, req.body),
  });

  app.route({
    ...contractRoute('GET /api/admin/subjectTests/{id}/experts', {
      summary: 'The experts who can grade a subject test, and whether they suffice',
      description:
        `Each expert with how they reach the test (\`subject_test\`: assigned to it; \`subject\`: its ` +
        'subject in some of its grades), and the coverage of its expert-graded tasks (fewer than two ' +
        `experts in a grade: no blind double marking there). ${MATCH}`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => subjectTestExperts(db, req.params.id),
  });

  app.route({
    ...contractRoute('POST /api/admin/subjectTests/{id}/experts', {
      summary: 'Assign experts to a subject test',
      description:
        'Each user of `expertIds` must have the expert role (400 `validation_failed`, nothing changes); the ' +
        'test joins their profile (once). Audited; answers waiting for an expert are assigned afterwards. ' +
        'Answers the experts of the test.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => addSubjectTestExperts(db, actorOf(req), req.params.id, req.body.expertIds),
  });

  app.route({
    ...contractRoute('DELETE /api/admin/subjectTests/{id}/experts/{expertId}', {
      summary: 'Take an expert off a subject test',
      description:
        '404 when the expert is not assigned to the test (an expert of its subject is changed on their ' +
        'own page). Answers already given to them stay theirs. Audited. Answers the experts of the test.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => removeSubjectTestExpert(db, actorOf(req), req.params.id, req.params.expertId),
  });
};

import { actorOf } from '../../auth/actor.js';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { badRequest } from '../../lib/errors.js';
import { Spool } from '../../lib/multipart.js';
import { MULTIPART_LIMITS, readUploadForm } from '../files/index.js';
import { anyContentScope, scopeOf, scopeOfNew } from './authoring.access.js';
import { containerRoutes } from './containers.routes.js';
import * as catalog from './catalog.service.js';
import { MAX_IMPORT_BYTES } from './spec-import.js';
import * as specs from './specifications.service.js';
import * as tasks from './tasks.service.js';
import * as variants from './variants.service.js';

/**
 * `/api/admin/content/*` (issue 11): content authoring. Admin only (the scope rules of
 * authoring.access.ts leave room for a content author limited to their subjects); every write is
 * audited and all or nothing.
 */
const tags = ['authoring'];
const VERSIONS =
  'A task or variant a started work uses is never changed in place: the change makes a new version ' +
  '(previousVersionId) and supersedes the old row, which keeps its works (their scores do not change) ' +
  'and is offered to no new work.';

export const contentRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  // ------------------------------------------------------------ subjects, exams, groups
  app.route({
    ...contractRoute(
      'GET /api/admin/content/subjects',
      { summary: 'Every subject with its exam and task counts', tags, errors: [401, 403] },
      anyContentScope,
    ),
    handler: () => catalog.subjectList(db),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/subjects',
      {
        summary: 'Create a subject',
        description: 'A code another subject has: 409 `code_taken`. Audited.',
        tags,
        errors: [400, 401, 403, 409],
      },
      anyContentScope,
    ),
    handler: (req) => catalog.createSubject(db, actorOf(req), req.body),
  });
  app.route({
    ...contractRoute(
      'PUT /api/admin/content/subjects/{id}',
      { summary: 'Rename a subject or change its code', tags, errors: [400, 401, 403, 404, 409] },
      scopeOf.subject,
    ),
    handler: (req) => catalog.updateSubject(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'GET /api/admin/content/subjects/{id}/exams',
      { summary: "A subject's exams", tags, errors: [400, 401, 403, 404] },
      scopeOf.subject,
    ),
    handler: (req) => catalog.subjectExamList(db, req.params.id),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/subjects/{id}/exams',
      {
        summary: 'Add an exam of a kind to a subject',
        description: 'One exam per kind and subject: a second is 409 `conflict`. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.subject,
    ),
    handler: (req) => catalog.createSubjectExam(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'PUT /api/admin/content/subjectExams/{id}',
      { summary: 'Update a subject exam', tags, errors: [400, 401, 403, 404, 409] },
      scopeOf.subjectExam,
    ),
    handler: (req) => catalog.updateSubjectExam(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'GET /api/admin/content/testGroups',
      { summary: 'Every test group', tags, errors: [401, 403] },
      anyContentScope,
    ),
    handler: () => catalog.testGroupList(db),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/testGroups',
      { summary: 'Create a test group', tags, errors: [400, 401, 403] },
      anyContentScope,
    ),
    handler: (req) => catalog.createTestGroup(db, actorOf(req), req.body),
  });

  // ------------------------------------------------------------ subject tests
  app.route({
    ...contractRoute(
      'POST /api/admin/content/subjectTests/list',
      { summary: 'Page of subject tests, drafts included', tags, errors: [400, 401, 403] },
      anyContentScope,
    ),
    handler: (req) => catalog.subjectTestList(db, req.body),
  });
  app.route({
    ...contractRoute(
      'GET /api/admin/content/subjectTests/{id}',
      {
        summary: 'A subject test as authored',
        description:
          'With `openConflicts`: the secure subject tests (itself included while a live diagnostic uses ' +
          'it) sharing an item with its current variants, so the form says why it cannot be opened ' +
          'before anyone tries (docs/open-tests.md).',
        tags,
        errors: [400, 401, 403, 404],
      },
      scopeOf.subjectTest,
    ),
    handler: (req) => catalog.subjectTest(db, req.params.id),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/subjectTests',
      {
        summary: 'Create a subject test (a draft)',
        description:
          'Procedure and instruction html are sanitised; the mark scale is kept from the highest step ' +
          'down. A draft is published by `POST …/publish` once it validates. Audited.',
        tags,
        errors: [400, 401, 403],
      },
      scopeOfNew.subjectTest,
    ),
    handler: (req) => catalog.createSubjectTest(db, actorOf(req), req.body),
  });
  app.route({
    ...contractRoute(
      'PUT /api/admin/content/subjectTests/{id}',
      {
        summary: 'Update a subject test',
        description:
          'Name, parallels, duration, test group, description, procedure and instruction html ' +
          '(sanitised), mark scale, level bands, specification, and `isOpen`: open to guests at any time ' +
          '(docs/open-tests.md), only when every task of its current variants is scored automatically ' +
          '(400 `open_test_needs_auto_scoring` otherwise) and none of its items (any version of a task) ' +
          'is in a subject test used by a diagnostic that is not both finished and published (409 ' +
          '`open_test_shares_tasks`, one `errors` entry per such subject test with its name, diagnostics ' +
          'and number of shared tasks; checked when the test is being opened). It stays with its ' +
          'subject. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.subjectTest,
    ),
    handler: (req) => catalog.updateSubjectTest(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'GET /api/admin/content/subjectTests/{id}/validation',
      {
        summary: 'What stops a subject test from being published',
        description: 'The same problems `POST …/publish` answers with, without publishing.',
        tags,
        errors: [400, 401, 403, 404],
      },
      scopeOf.subjectTest,
    ),
    handler: (req) => catalog.validation(db, req.params.id),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/subjectTests/{id}/publish',
      {
        summary: 'Validate and publish a subject test',
        description:
          'Publishes only content that can be taken and scored: every task passes the task model ' +
          '(a key, options, a key among the options, a scoring rule the engine accepts), no variant is ' +
          'empty, variants have one max score, and the mark scale starts at 0 with every step ' +
          'reachable. Otherwise 409 `content_invalid`, each problem an entry of `errors` (`code`, ' +
          '`message`, `params`: variantId, taskId, position). Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.subjectTest,
    ),
    handler: (req) => catalog.publish(db, actorOf(req), req.params.id),
  });

  // ------------------------------------------------------------ variants
  app.route({
    ...contractRoute(
      'GET /api/admin/content/subjectTests/{id}/variants',
      { summary: "A subject test's current variants with their tasks", tags, errors: [400, 401, 403, 404] },
      scopeOf.subjectTest,
    ),
    handler: (req) => variants.variantList(db, req.params.id),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/subjectTests/{id}/variants',
      {
        summary: 'Create a variant from chosen tasks',
        description:
          'Tasks in order (positions 1, 2, …), current tasks of the test’s subject; each position’s max ' +
          'score defaults to the task’s. A number a current variant has: 409 `conflict`. In a test open ' +
          'to guests every task stays automatic (400 `open_test_needs_auto_scoring`) and none may be an ' +
          'item a secure test of a live diagnostic uses (409 `open_test_shares_tasks`). Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.subjectTest,
    ),
    handler: (req) => variants.createVariant(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/subjectTests/{id}/variants/generate',
      {
        summary: "Generate variants from the subject's task pool by a blueprint",
        description:
          'Each blueprint row draws `count` tasks of the subject’s current pool (by specification ' +
          'element, by category and below it, or from the whole pool) with a PRNG seeded by `seed`: ' +
          'the same seed on the same pool gives the same variants. No task repeats within a variant ' +
          '(409 `pool_too_small` when a row cannot be filled, nothing created); every position of a ' +
          'row has one max score, so the variants have equal max scores. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.subjectTest,
    ),
    handler: (req) => variants.generateVariants(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'PUT /api/admin/content/variants/{id}',
      {
        summary: "Change a variant's tasks",
        description:
          `${VERSIONS} A superseded variant: 409 \`conflict\`. In a test open to guests: as when ` +
          'creating a variant (`open_test_needs_auto_scoring`, `open_test_shares_tasks`). Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.variant,
    ),
    handler: (req) => variants.updateVariant(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'DELETE /api/admin/content/variants/{id}',
      {
        summary: 'Delete a variant no work uses',
        description: 'A variant a work was started on: 409 `has_exam_works`. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.variant,
    ),
    handler: (req) => variants.deleteVariant(db, actorOf(req), req.params.id),
  });

  // ------------------------------------------------------------ tasks
  app.route({
    ...contractRoute(
      'POST /api/admin/content/tasks/list',
      { summary: 'Page of the task pool (current versions)', tags, errors: [400, 401, 403] },
      anyContentScope,
    ),
    handler: (req) => tasks.taskList(db, req.body),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/tasks',
      {
        summary: 'Create a task',
        description:
          'The definition (answer type, content, reference, scoring, max score, criteria) is checked by ' +
          'the task model: 400 `invalid_task` with the failing fields. Html is sanitised. Audited.',
        tags,
        errors: [400, 401, 403],
      },
      scopeOfNew.task,
    ),
    handler: (req) => tasks.createTask(db, actorOf(req), req.body),
  });
  app.route({
    ...contractRoute(
      'GET /api/admin/content/tasks/{taskId}',
      {
        summary: 'A task with its key, scoring, classifiers and files',
        description: '`usedByWorks`: a started work has it, so an edit makes a new version.',
        tags,
        errors: [400, 401, 403, 404],
      },
      scopeOf.task,
    ),
    handler: (req) => tasks.task(db, req.params.taskId),
  });
  app.route({
    ...contractRoute(
      'PUT /api/admin/content/tasks/{taskId}',
      {
        summary: 'Update a task',
        description:
          `${VERSIONS} Current variants no work uses are repointed to the new version; a current ` +
          'variant a work uses gets a new version holding it. The answer is the row now current. ' +
          '400 `invalid_task` as on create; a superseded version: 409 `conflict`. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.task,
    ),
    handler: (req) => tasks.updateTask(db, actorOf(req), req.params.taskId, req.body),
  });
  app.route({
    ...contractRoute(
      'DELETE /api/admin/content/tasks/{taskId}',
      {
        summary: 'Withdraw a task no variant uses',
        description:
          'Soft: the row stays for the works that have it and leaves the pool. A task in a current ' +
          'variant: 409 `conflict`. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.task,
    ),
    handler: (req) => tasks.deleteTask(db, actorOf(req), req.params.taskId),
  });
  app.route({
    ...contractRoute(
      'GET /api/admin/content/tasks/{taskId}/versions',
      { summary: 'Every version of a task, oldest first', tags, errors: [400, 401, 403, 404] },
      scopeOf.task,
    ),
    handler: (req) => tasks.taskVersions(db, req.params.taskId),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/tasks/{taskId}/score',
      {
        summary: 'Score a trial answer',
        description:
          'Scores `value` as a participant’s answer would be scored (the scoring engine): `score` ' +
          '(null for expert-graded types), `maxScore`, `status` (scored | empty | manual), `correct`. A ' +
          'value of another shape: 400 `invalid_answer`; a task the engine cannot score: 409 ' +
          '`content_invalid`. Changes nothing.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.task,
    ),
    handler: (req) => tasks.scoreTrial(db, req.params.taskId, req.body.value),
  });
  app.route({
    ...contractRoute(
      'PUT /api/admin/content/tasks/{taskId}/elements',
      {
        summary: "Set a task's specification elements (classifiers)",
        description: 'Classifiers are reporting data: they change in place on the current version. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.task,
    ),
    handler: (req) => tasks.setTaskElements(db, actorOf(req), req.params.taskId, req.body.elementIds),
  });

  // ------------------------------------------------------------ specifications
  app.route({
    ...contractRoute(
      'GET /api/admin/content/specifications',
      { summary: 'Every specification (кодификатор)', tags, errors: [400, 401, 403] },
      anyContentScope,
    ),
    handler: (req) => specs.specificationList(db, req.query.subjectId),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/specifications',
      { summary: 'Create a specification', tags, errors: [400, 401, 403] },
      anyContentScope,
    ),
    handler: (req) => specs.createSpecification(db, actorOf(req), req.body),
  });
  app.route({
    ...contractRoute(
      'GET /api/admin/content/specifications/{id}',
      { summary: 'A specification with its elements in tree order', tags, errors: [400, 401, 403, 404] },
      scopeOf.specification,
    ),
    handler: (req) => specs.specification(db, req.params.id),
  });
  app.route({
    ...contractRoute(
      'PUT /api/admin/content/specifications/{id}',
      { summary: 'Update a specification', tags, errors: [400, 401, 403, 404] },
      scopeOf.specification,
    ),
    handler: (req) => specs.updateSpecification(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'DELETE /api/admin/content/specifications/{id}',
      {
        summary: 'Delete a specification',
        description: 'One a subject test names, or whose elements classify tasks: 409 `conflict`. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.specification,
    ),
    handler: (req) => specs.deleteSpecification(db, actorOf(req), req.params.id),
  });
  app.route({
    ...contractRoute(
      'POST /api/admin/content/specifications/{id}/elements',
      {
        summary: 'Add an element',
        description: 'A code the specification has: 409 `code_taken`. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.specification,
    ),
    handler: (req) => specs.addElement(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'PUT /api/admin/content/specificationElements/{id}',
      {
        summary: 'Update an element (code, name, kind, parent, position)',
        description: 'A parent below the element itself: 400 (`cycle`). Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.element,
    ),
    handler: (req) => specs.updateElement(db, actorOf(req), req.params.id, req.body),
  });
  app.route({
    ...contractRoute(
      'DELETE /api/admin/content/specificationElements/{id}',
      {
        summary: 'Delete an element with the elements below it',
        description: 'One that classifies tasks (or has such below it): 409 `conflict`. Audited.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      scopeOf.element,
    ),
    handler: (req) => specs.deleteElement(db, actorOf(req), req.params.id),
  });

  // html containers (issue 11): containers.routes.ts.
  await app.register(containerRoutes);

  // The import reads a multipart form: its own plugin, so only this route parses multipart.
  await app.register(async (child) => {
    const upload = child.withTypeProvider<ZodTypeProvider>();
    await upload.register(multipart, {
      limits: { ...MULTIPART_LIMITS, fileSize: MAX_IMPORT_BYTES, files: 1 },
    });
    const route = contractRoute(
      'POST /api/admin/content/specifications/{id}/import',
      {
        summary: 'Import elements from a spreadsheet (all or nothing)',
        description:
          'Multipart with one file `file`: .xlsx (first sheet) or .csv in UTF-8 separated by commas or ' +
          'semicolons, at most 2 MB. The first row names the columns in English or Russian: code (код), ' +
          'name (название), parent (родитель: the parent’s code), kind (вид: content | skill, optional). ' +
          'Elements are matched by code: a re-import updates names, kinds, parents and order, adds new ' +
          'codes and keeps elements the file does not name. Any error: 400 `import_invalid` with ' +
          '`errors` (`params.row`, 1-based with the header as row 1, and `params.column`) and nothing ' +
          'written. Audited.',
        tags,
        errors: [400, 401, 403, 404, 413, 415],
      },
      scopeOf.specification,
    );
    upload.route({
      ...route,
      handler: async (req) => {
        const spool = new Spool();
        try {
          const { files } = await readUploadForm(req, spool, async () => ({
            perFileBytes: MAX_IMPORT_BYTES,
            quotaBytes: null,
          }));
          const file = files[0];
          if (!file) throw badRequest('no_file', 'Send the spreadsheet as the form field `file`');
          return await specs.importElements(db, actorOf(req), req.params.id, {
            name: file.name,
            data: await file.read(),
          });
        } finally {
          await spool.cleanup();
        }
      },
    });
  });
};

import type { AnswerType, BlankLayout, ScanReviewList } from '@attesta/contract';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, examWorks, results, taskScores } from '../../db/schema/index.js';
import { fillForm, scannedPdf, type Plan } from '../../../test/omr.js';
import { rasterizePdf, type PageImage } from '../../../test/pdf.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  tasksOfEveryType,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';
import { uploadAndWait } from './test-support.js';

/*
 * Issue 25's "done when": a class's answer forms printed by Attesta, filled, scanned into ONE PDF
 * and uploaded once come back as finished, scored works with nobody touching a clear mark — every
 * sitting's answers saved from its own pages (the page code says whose), nothing left to review.
 */

const MACHINE_READ: AnswerType[] = [
  'single_choice',
  'multiple_choice',
  'number',
  'digit_sequence',
  'ordering',
  'matching',
];
const TASKS = tasksOfEveryType().filter((task) => MACHINE_READ.includes(task.answerType as AnswerType));

let t: TestApp;
let org: OrgFixture;
let coordinator: Awaited<ReturnType<typeof signedIn>>;

interface Sitting {
  workId: number;
  taskIds: number[];
  pages: PageImage[];
  plan: Plan;
}

/** A paper sitting of one student of the class, its form printed, rendered at 200 dpi and filled. */
async function sitting(studentId: number): Promise<Sitting> {
  const pt = await createParticipantTest(t.app, org, { studentId });
  const variant = await createVariantWithTasks(t.app, pt.subjectTestId, TASKS);
  const workId = await createExamWork(t.app, pt.participantTestId, variant.variantId, {
    answerMode: 'blank',
  });
  const url = `/api/exam/test/examwork/${workId}/blanks`;
  const headers = { cookie: coordinator.session.cookie };
  const layout = (
    await t.app.inject({ method: 'GET', url: `${url}?format=layout`, headers })
  ).json<BlankLayout>();
  const printed = await rasterizePdf((await t.app.inject({ method: 'GET', url, headers })).rawPayload, 200);
  const types = new Map(variant.variantTaskIds.map((id, i) => [id, TASKS[i]!.answerType as AnswerType]));
  const { pages, plan } = fillForm(printed, layout, types, false);
  return { workId, taskIds: variant.variantTaskIds, pages, plan };
}

let sittings: Sitting[];
beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
  coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
  sittings = [];
  for (const studentId of org.studentIds) sittings.push(await sitting(studentId));
}, 180_000);
afterAll(async () => t?.close());

describe("a class's sheets scanned into one PDF", () => {
  it('come back as finished, scored works without a person touching a clear mark', async () => {
    const pages = sittings.flatMap((s) => s.pages);
    const pdf = await scannedPdf(pages, { rotate: 1.5, blur: 0.5, noise: 4 });
    const headers = coordinator.session.headers;
    const batch = await uploadAndWait(t.app, headers, [{ filename: 'class-7a.pdf', data: pdf }], 150_000);
    expect(batch.status).toBe('done');
    expect(batch.pages).toHaveLength(pages.length);
    expect(batch.pages.every((p) => p.status === 'recognized')).toBe(true);

    const workIds = sittings.map((s) => s.workId);
    const works = await t.app.ctx.db.select().from(examWorks).where(inArray(examWorks.id, workIds));
    expect(works.map((w) => [w.status, w.finishReason])).toEqual(workIds.map(() => ['finished', 'paper']));

    // Each sitting holds exactly the answers of its own filled pages.
    for (const s of sittings) {
      const stored = await t.app.ctx.db.select().from(answers).where(eq(answers.examWorkId, s.workId));
      expect(stored.map((a) => a.variantTaskId).sort()).toEqual([...s.taskIds].sort());
      expect(stored.every((a) => a.source === 'staff' && a.answerMode === 'blank')).toBe(true);
      const single = stored.find((a) => a.variantTaskId === s.taskIds[0]);
      expect(single?.value).toBe(s.plan.expected.get(s.taskIds[0]!)![0]);
    }

    // Scored as keyed answers are, by the scoring queue.
    await t.app.jobs.drain();
    const scored = await t.app.ctx.db.select().from(results).where(inArray(results.examWorkId, workIds));
    expect(scored).toHaveLength(sittings.length);
    expect(scored.every((r) => r.primaryScore !== null)).toBe(true);
    const taskRows = await t.app.ctx.db
      .select()
      .from(taskScores)
      .where(inArray(taskScores.examWorkId, workIds));
    expect(taskRows).toHaveLength(sittings.length * TASKS.length);

    // Nothing waits for a person.
    const review = await t.app.inject({ method: 'GET', url: '/api/scans/review', headers });
    expect(review.statusCode, review.body).toBe(200);
    const open = review.json<ScanReviewList>();
    expect(open.total).toBe(0);
    expect(open.counts.every((c) => c.open === 0)).toBe(true);
  }, 240_000);
});

import type { AnswerType, BlankLayout, ScanReviewItem, ScanReviewList } from '@attesta/contract';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerFiles,
  answers,
  auditEvents,
  examWorks,
  expertAssignments,
  files,
  organizatorAssignments,
  results,
  taskScores,
} from '../../db/schema/index.js';
import { copyPage, fillForm, markBubble, scannedPdf, spoil, type Plan } from '../../../test/omr.js';
import { rasterizePdf, type PageImage } from '../../../test/pdf.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  tasksOfEveryType,
  type ExamWorkOptions,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';
import { uploadAndWait as uploadAndWaitOn, type ScanFile } from './test-support.js';
import { PAPER_TEXT_PLACEHOLDER } from '../exam-test/index.js';

/*
 * Saving what scans read and the review of the rest (issue 25, items 2 and 3), through the API on
 * real forms filled by test/omr.ts: clear answers go into the work as a keyed paper form's do and
 * are scored alike; a double mark, a text box, a page without its code and a newer scan that reads
 * otherwise wait for a person, and only what the person confirms is saved.
 */

let t: TestApp;
let org: OrgFixture;
let coordinator: Awaited<ReturnType<typeof signedIn>>;
const TASKS = tasksOfEveryType();
const T = {
  single: 0,
  multiple: 1,
  short: 2,
  number: 3,
  digits: 4,
  ordering: 5,
  matching: 6,
  cloze: 7,
  essay: 8,
  file: 9,
};

interface Form {
  participantTestId: number;
  activationCode: string;
  workId: number;
  taskIds: number[];
  registrationCode: string;
  layout: BlankLayout;
  answerTypes: Map<number, AnswerType>;
  blankPages: PageImage[];
}

/** A sitting with a work on a variant of every answer type, and its form rendered at 200 dpi. */
async function sitting(work: ExamWorkOptions, render = true): Promise<Form> {
  const pt = await createParticipantTest(t.app, org);
  const variant = await createVariantWithTasks(t.app, pt.subjectTestId, TASKS);
  const workId = await createExamWork(t.app, pt.participantTestId, variant.variantId, work);
  const [row] = await t.database.query<{ registration_code: string }>(
    'select registration_code from participant_tests where id = $1',
    [pt.participantTestId],
  );
  const url = `/api/exam/test/examwork/${workId}/blanks`;
  const headers = { cookie: coordinator.session.cookie };
  const layout = render
    ? (await t.app.inject({ method: 'GET', url: `${url}?format=layout`, headers })).json<BlankLayout>()
    : { pages: [] };
  const blankPages = render
    ? await rasterizePdf((await t.app.inject({ method: 'GET', url, headers })).rawPayload, 200)
    : [];
  return {
    participantTestId: pt.participantTestId,
    activationCode: pt.activationCode,
    workId,
    taskIds: variant.variantTaskIds,
    registrationCode: row!.registration_code,
    layout,
    answerTypes: new Map(variant.variantTaskIds.map((id, i) => [id, TASKS[i]!.answerType as AnswerType])),
    blankPages,
  };
}

/** A paper work written now, and an online one whose time is over (paper forms are keyed after it). */
const PAPER: ExamWorkOptions = { answerMode: 'blank' };
const OVER: ExamWorkOptions = { startedAt: new Date(Date.now() - 3 * 3_600_000) };

const uploadAndWait = (headers: Record<string, string>, files: ScanFile[]) =>
  uploadAndWaitOn(t.app, headers, files);

const list = (headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/scans/review${query}`, headers });
const itemsOf = async (headers: Record<string, string>, query = '') => {
  const res = await list(headers, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ScanReviewList>();
};
const act = (id: number, headers: Record<string, string>, body: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/scans/review/${id}`, headers, payload: body as object });
const crop = (id: number | string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/scans/review/${id}/crop`, headers });

const answersOf = async (workId: number) =>
  new Map(
    (await t.app.ctx.db.select().from(answers).where(eq(answers.examWorkId, workId))).map((a) => [
      a.variantTaskId,
      a,
    ]),
  );

/** The answer values the filled form means, written out by answer type (not by the reader's code). */
function meant(form: Form, plan: Plan): Map<number, unknown> {
  const id = (i: number) => form.taskIds[i]!;
  const read = (i: number) => plan.expected.get(id(i))!;
  const pairs = (i: number) =>
    read(i).map((v) => [v.slice(0, v.lastIndexOf(':')), v.slice(v.lastIndexOf(':') + 1)]);
  return new Map<number, unknown>([
    [id(T.single), read(T.single)[0]],
    [id(T.multiple), read(T.multiple)],
    // Columns 1–3 hold 3, 6 and 9 (omr.ts), the comma after column 2.
    [id(T.number), '36,9'],
    [id(T.digits), '369'],
    [
      id(T.ordering),
      pairs(T.ordering)
        .sort((a, b) => Number(a[1]) - Number(b[1]))
        .map((p) => p[0]),
    ],
    [id(T.matching), Object.fromEntries(pairs(T.matching))],
    [id(T.cloze), Object.fromEntries(pairs(T.cloze))],
  ]);
}

let paper: Form;
let paperScan: Buffer;
let paperPlan: Plan;

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
  coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
  paper = await sitting(PAPER);
  const filled = fillForm(paper.blankPages, paper.layout, paper.answerTypes, false);
  paperPlan = filled.plan;
  // Something written in the answer area of the file task: a row of blots across its middle.
  paper.layout.pages.forEach((page, p) => {
    for (const box of page.boxes.filter((b) => b.variantTaskId === paper.taskIds[T.file]))
      for (let k = 1; k <= 6; k++)
        markBubble(
          filled.pages[p]!,
          {
            variantTaskId: box.variantTaskId,
            value: '',
            x: box.x + (k * box.w) / 7,
            y: box.y + box.h / 2,
            r: 5,
          },
          { kind: 'disc', grey: 40 },
        );
  });
  paperScan = await scannedPdf(filled.pages, { rotate: 2, blur: 0.6, noise: 5 });
}, 120_000);
afterAll(async () => t?.close());

describe('saving what a scan reads clearly', () => {
  it('saves a clear sheet into its paper work as a keyed form, finishes the work and scores it as keyed answers are', async () => {
    const batch = await uploadAndWait(coordinator.session.headers, [
      { filename: 'class.pdf', data: paperScan },
    ]);
    expect(batch.pages.map((p) => p.status)).toEqual(paper.layout.pages.map(() => 'recognized'));

    const [work] = await t.app.ctx.db.select().from(examWorks).where(eq(examWorks.id, paper.workId));
    expect(work).toMatchObject({ status: 'finished', finishReason: 'paper' });
    const stored = await answersOf(paper.workId);
    const expected = meant(paper, paperPlan);
    for (const [taskId, value] of expected) {
      expect(stored.get(taskId)?.value, `task ${paper.taskIds.indexOf(taskId)}`).toEqual(value);
      expect(stored.get(taskId)).toMatchObject({
        source: 'staff',
        answerMode: 'blank',
        savedBy: coordinator.user.id,
        seq: 1,
      });
    }
    // Text boxes are not read by the machine: nothing is saved for them before a person keys them.
    expect(stored.has(paper.taskIds[T.short]!)).toBe(false);
    // The written answer area of the file task is its answer: the crop, attached for the experts.
    const fileTask = paper.taskIds[T.file]!;
    const attached = await t.app.ctx.db
      .select({ fileId: answerFiles.fileId, mime: files.mime, size: files.size })
      .from(answerFiles)
      .innerJoin(files, eq(files.id, answerFiles.fileId))
      .where(and(eq(answerFiles.examWorkId, paper.workId), eq(answerFiles.variantTaskId, fileTask)));
    expect(attached).toHaveLength(1);
    expect(attached[0]!.mime).toBe('image/png');
    expect(stored.get(fileTask)).toMatchObject({
      value: { fileIds: [attached[0]!.fileId] },
      source: 'staff',
    });
    // An extended-text area left empty is not attached either.
    expect(stored.has(paper.taskIds[T.essay]!)).toBe(false);
    const keyed = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'exam_work.answers_keyed_in'),
          eq(auditEvents.entityId, String(paper.workId)),
        ),
      );
    // A keyed batch per page read, as a person keying the form page by page, and one with the file.
    expect(keyed).toHaveLength(paper.layout.pages.filter((p) => p.bubbles.length).length + 1);
    expect(keyed.flatMap((k) => (k.details as { saved: number[] }).saved).sort()).toEqual(
      [...expected.keys(), paper.taskIds[T.file]!].sort(),
    );

    // The same values keyed in by hand into another sitting's finished work score the same.
    const other = await sitting(OVER, false);
    await t.app.ctx.db
      .update(examWorks)
      .set({ status: 'finished', finishedAt: new Date(), finishReason: 'timeout' })
      .where(eq(examWorks.id, other.workId));
    const keyIn = await t.app.inject({
      method: 'PUT',
      url: `/api/exam/test/saveanswers?registrationCode=${other.registrationCode}`,
      headers: coordinator.session.headers,
      payload: {
        examWorkId: other.workId,
        answers: [...expected].map(([taskId, value]) => ({
          variantTaskId: other.taskIds[paper.taskIds.indexOf(taskId)]!,
          value,
          seq: 1,
        })),
      },
    });
    expect(keyIn.statusCode, keyIn.body).toBe(200);
    await t.app.jobs.drain();
    const scoreOf = async (workId: number, ids: number[]) => {
      const [result] = await t.app.ctx.db.select().from(results).where(eq(results.examWorkId, workId));
      const tasks = await t.app.ctx.db.select().from(taskScores).where(eq(taskScores.examWorkId, workId));
      const byId = new Map(tasks.map((s) => [s.variantTaskId, s.autoScore]));
      return { total: result?.primaryScore, tasks: ids.map((id) => byId.get(id)) };
    };
    const indexes = [T.single, T.multiple, T.number, T.digits, T.ordering, T.matching, T.cloze];
    const scanned = await scoreOf(
      paper.workId,
      indexes.map((i) => paper.taskIds[i]!),
    );
    const byHand = await scoreOf(
      other.workId,
      indexes.map((i) => other.taskIds[i]!),
    );
    expect(scanned.total).toBeDefined();
    expect(scanned).toEqual(byHand);
    expect(scanned.tasks.some((s) => Number(s) > 0)).toBe(true);
  }, 180_000);

  it('leaves the text boxes to key in, with a crop of each; keying saves the typed text as the answer', async () => {
    const { items, counts } = await itemsOf(coordinator.session.headers, '?kind=key_text');
    const mine = items.filter((i) => i.registrationCode === paper.registrationCode);
    expect(mine.map((i) => i.variantTaskId).sort()).toEqual(
      [paper.taskIds[T.short]!, paper.taskIds[T.cloze]!].sort(),
    );
    expect(counts.find((c) => c.classId === org.classId)?.open).toBeGreaterThanOrEqual(2);
    const short = mine.find((i) => i.variantTaskId === paper.taskIds[T.short])!;
    expect(short).toMatchObject({
      kind: 'key_text',
      status: 'open',
      answerType: 'short_text',
      taskNumber: 3,
    });

    const png = await crop(short.id, coordinator.session.headers);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    const meta = await sharp(png.rawPayload).metadata();
    expect(meta.format).toBe('png');
    // The box's crop, not the page: a strip wider than tall.
    expect(meta.width!).toBeGreaterThan(meta.height! * 3);

    // A key_text item takes `key` only.
    const wrong = await act(short.id, coordinator.session.headers, { action: 'accept' });
    expect([wrong.statusCode, wrong.json().code, wrong.json().errors?.[0]?.path]).toEqual([
      400,
      'validation_failed',
      'body.action',
    ]);
    const keyed = await act(short.id, coordinator.session.headers, { action: 'key', text: ' ОТВЕТ ' });
    expect(keyed.statusCode, keyed.body).toBe(200);
    expect(keyed.json<ScanReviewItem>()).toMatchObject({ status: 'resolved', resolution: 'keyed' });
    const gap = mine.find((i) => i.variantTaskId === paper.taskIds[T.cloze])!;
    expect(
      (await act(gap.id, coordinator.session.headers, { action: 'key', text: 'Москва' })).statusCode,
    ).toBe(200);
    const stored = await answersOf(paper.workId);
    expect(stored.get(paper.taskIds[T.short]!)).toMatchObject({ value: 'ОТВЕТ', source: 'staff', seq: 1 });
    // The typed gap joins the gap read from bubbles.
    expect(stored.get(paper.taskIds[T.cloze]!)!.value).toEqual({
      ...(meant(paper, paperPlan).get(paper.taskIds[T.cloze]!) as object),
      b1: 'Москва',
    });
    const again = await act(short.id, coordinator.session.headers, { action: 'key', text: 'другое' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'conflict']);
    expect((await answersOf(paper.workId)).get(paper.taskIds[T.short]!)!.value).toBe('ОТВЕТ');
  }, 60_000);

  it('re-uploading the identical file changes nothing', async () => {
    const before = await answersOf(paper.workId);
    const open = (await itemsOf(coordinator.session.headers)).total;
    const batch = await uploadAndWait(coordinator.session.headers, [
      { filename: 'again.pdf', data: paperScan },
    ]);
    expect(batch.pages.map((p) => p.status)).toEqual(paper.layout.pages.map(() => 'duplicate'));
    expect(await answersOf(paper.workId)).toEqual(before);
    expect((await itemsOf(coordinator.session.headers)).total).toBe(open);
  }, 90_000);

  it('a newer scan that reads a saved answer otherwise does not overwrite it: it asks (replace)', async () => {
    const single = paper.taskIds[T.single]!;
    const pageIndex = paper.layout.pages.findIndex((p) => p.bubbles.some((b) => b.variantTaskId === single));
    const layoutPage = paper.layout.pages[pageIndex]!;
    const page = copyPage(paper.blankPages[pageIndex]!);
    // The same marks as before on this page, but another option of the single choice.
    const firstOption = layoutPage.bubbles.find((b) => b.variantTaskId === single)!;
    for (const bubble of layoutPage.bubbles) {
      const marked =
        bubble.variantTaskId === single
          ? bubble === firstOption
          : paperPlan.expected.get(bubble.variantTaskId)?.includes(bubble.value);
      if (marked) markBubble(page, bubble, { kind: 'disc', grey: 30 });
    }
    const saved = (await answersOf(paper.workId)).get(single)!;
    expect(saved.value).not.toBe(firstOption.value);
    const batch = await uploadAndWait(coordinator.session.headers, [
      { filename: 'rescan.png', data: await spoil(page, { rotate: -1.5 }) },
    ]);
    expect(batch.pages[0]).toMatchObject({ status: 'recognized', formPage: pageIndex + 1 });

    const replaces = (await itemsOf(coordinator.session.headers, '?kind=replace')).items.filter(
      (i) => i.registrationCode === paper.registrationCode,
    );
    expect(replaces).toHaveLength(1);
    expect(replaces[0]).toMatchObject({
      variantTaskId: single,
      recognized: [firstOption.value],
      savedValue: [saved.value],
      answerType: 'single_choice',
      taskNumber: 1,
    });
    expect(replaces[0]!.choices.map((c) => c.label).slice(0, 2)).toEqual(['А', 'Б']);
    expect((await answersOf(paper.workId)).get(single)).toEqual(saved);

    // `set` is for doubtful marks only; accepting replaces the answer through the keyed path.
    const set = await act(replaces[0]!.id, coordinator.session.headers, { action: 'set', value: [] });
    expect([set.statusCode, set.json().errors?.[0]?.path]).toEqual([400, 'body.action']);
    const accepted = await act(replaces[0]!.id, coordinator.session.headers, { action: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await answersOf(paper.workId)).get(single)).toMatchObject({ value: firstOption.value, seq: 2 });
  }, 90_000);
});

describe('pages of a work still written online', () => {
  it('wait while the work runs and are saved when it finishes', async () => {
    const form = await sitting({});
    const filled = fillForm(form.blankPages, form.layout, form.answerTypes, false);
    const batch = await uploadAndWait(coordinator.session.headers, [
      { filename: 'early.pdf', data: await scannedPdf(filled.pages, { rotate: -1 }) },
    ]);
    expect(batch.pages.map((p) => p.status)).toEqual(form.layout.pages.map(() => 'recognized'));
    // The work is written online now: a keyed form is not taken yet.
    expect((await answersOf(form.workId)).size).toBe(0);

    const participant = await signedInParticipant(t.app, {
      participantTestId: form.participantTestId,
      activationCode: form.activationCode,
      diagnosticId: 0,
      subjectTestId: 0,
    });
    const finish = await t.app.inject({
      method: 'PUT',
      url: `/api/exam/test/examwork/finish/${form.workId}/manual`,
      headers: participant.session.headers,
    });
    expect(finish.statusCode, finish.body).toBe(200);
    await t.app.jobs.drain();

    const stored = await answersOf(form.workId);
    for (const [taskId, value] of meant(form, filled.plan))
      expect(stored.get(taskId), `task ${form.taskIds.indexOf(taskId)}`).toMatchObject({
        value,
        source: 'staff',
        answerMode: 'blank',
        savedBy: coordinator.user.id,
      });
    // Its text boxes wait to be keyed, as any page's.
    const keyText = (await itemsOf(coordinator.session.headers, '?kind=key_text')).items.filter(
      (i) => i.registrationCode === form.registrationCode,
    );
    expect(keyText.length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});

describe('a form printed before a scan saved answers', () => {
  it('stays readable: page 1 scanned and saved, page 2 scanned later is read and saved too', async () => {
    // An online work whose time is over, nothing on paper yet: its form is the whole variant.
    const form = await sitting(OVER);
    expect(form.layout.pages.length).toBeGreaterThanOrEqual(2);
    const filled = fillForm(form.blankPages, form.layout, form.answerTypes, false);
    const onPage = (p: number) => new Set(form.layout.pages[p]!.bubbles.map((b) => b.variantTaskId));
    const expected = meant(form, filled.plan);

    const first = await uploadAndWait(coordinator.session.headers, [
      { filename: 'page-1.pdf', data: await scannedPdf([filled.pages[0]!], { rotate: 1 }) },
    ]);
    expect(first.pages.map((p) => p.status)).toEqual(['recognized']);
    const afterFirst = await answersOf(form.workId);
    for (const id of onPage(0))
      if (expected.has(id)) expect(afterFirst.get(id)?.value).toEqual(expected.get(id));
    // Those answers are on paper now (answer mode blank): the work's form today holds only them.
    const now = (
      await t.app.inject({
        method: 'GET',
        url: `/api/exam/test/examwork/${form.workId}/blanks?format=layout`,
        headers: coordinator.session.headers,
      })
    ).json<BlankLayout>();
    expect(now).not.toEqual(form.layout);

    const second = await uploadAndWait(coordinator.session.headers, [
      { filename: 'page-2.pdf', data: await scannedPdf([filled.pages[1]!], { rotate: -1 }) },
    ]);
    expect(second.pages).toMatchObject([{ status: 'recognized', formPage: 2 }]);
    const stored = await answersOf(form.workId);
    const second2 = [...onPage(1)].filter((id) => expected.has(id));
    expect(second2.length).toBeGreaterThan(0);
    for (const id of second2)
      expect(stored.get(id), `task ${form.taskIds.indexOf(id)}`).toMatchObject({
        value: expected.get(id),
        source: 'staff',
        answerMode: 'blank',
      });
    // Nothing of it waits as unreadable, and its review crops are cut with the layout it was printed with.
    const items = (await itemsOf(coordinator.session.headers)).items.filter(
      (i) => i.registrationCode === form.registrationCode,
    );
    expect(items.filter((i) => i.kind === 'unreadable')).toEqual([]);
    // Its text boxes wait to be keyed, as the printed page holds them (today's form has no page 2).
    expect(items.filter((i) => i.formPage === 2 && i.kind === 'key_text')).toHaveLength(
      form.layout.pages[1]!.boxes.filter((b) => b.kind === 'text').length,
    );
    for (const item of items.filter((i) => i.formPage === 2 && i.kind === 'key_text')) {
      const res = await crop(item.id, coordinator.session.headers);
      expect(res.statusCode).toBe(200);
      const box = form.layout.pages[1]!.boxes.find((b) => b.variantTaskId === item.variantTaskId)!;
      const meta = await sharp(res.rawPayload).metadata();
      // The crop is the printed box (200 dpi, ± a little), not a region of today's layout.
      expect(Math.abs(meta.width! / meta.height! - box.w / box.h)).toBeLessThan(0.6);
    }
  }, 120_000);
});

describe('extended-text answer areas', () => {
  it('attach the written area to the answer, which goes to the experts, who see the crop', async () => {
    const form = await sitting(PAPER);
    const filled = fillForm(form.blankPages, form.layout, form.answerTypes, false);
    const essay = form.taskIds[T.essay]!;
    form.layout.pages.forEach((page, p) => {
      for (const box of page.boxes.filter((b) => b.variantTaskId === essay))
        for (let k = 1; k <= 6; k++)
          markBubble(
            filled.pages[p]!,
            { variantTaskId: essay, value: '', x: box.x + (k * box.w) / 7, y: box.y + box.h / 2, r: 5 },
            { kind: 'disc', grey: 40 },
          );
    });
    await uploadAndWait(coordinator.session.headers, [
      { filename: 'essay.pdf', data: await scannedPdf(filled.pages, { rotate: 1.5 }) },
    ]);
    const answer = (await answersOf(form.workId)).get(essay);
    expect(answer).toMatchObject({ value: PAPER_TEXT_PLACEHOLDER, source: 'staff', answerMode: 'blank' });
    const attached = await t.app.ctx.db
      .select({ fileId: answerFiles.fileId, mime: files.mime })
      .from(answerFiles)
      .innerJoin(files, eq(files.id, answerFiles.fileId))
      .where(and(eq(answerFiles.examWorkId, form.workId), eq(answerFiles.variantTaskId, essay)));
    expect(attached).toEqual([{ fileId: expect.any(Number), mime: 'image/png' }]);
    // Not an empty answer: it waits for the experts.
    await t.app.jobs.drain();
    const [score] = await t.app.ctx.db
      .select()
      .from(taskScores)
      .where(and(eq(taskScores.examWorkId, form.workId), eq(taskScores.variantTaskId, essay)));
    expect(score?.autoStatus).toBe('manual');

    const expert = await signedIn(t.app, ['expert']);
    const [assignment] = await t.app.ctx.db
      .insert(expertAssignments)
      .values({
        examWorkId: form.workId,
        variantTaskId: essay,
        expertId: expert.user.id,
        round: 1,
        anonCode: 'SCAN1',
      })
      .returning();
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/expert/assignment/${assignment!.id}`,
      headers: expert.session.headers,
    });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().answer).toMatchObject({
      value: PAPER_TEXT_PLACEHOLDER,
      files: [{ id: attached[0]!.fileId, mime: 'image/png' }],
    });
    const png = await t.app.inject({
      method: 'GET',
      url: `/api/files/${attached[0]!.fileId}`,
      headers: expert.session.headers,
    });
    expect(png.statusCode).toBe(200);
    const meta = await sharp(png.rawPayload).metadata();
    expect(meta.format).toBe('png');
    // The area's crop, not the page: wider than tall, as the ruled area is.
    expect(meta.width!).toBeGreaterThan(meta.height!);
  }, 120_000);
});

describe('doubtful marks', () => {
  it('saves nothing of a double mark until a person sets the value; what the task cannot take is 400', async () => {
    const form = await sitting(OVER);
    const filled = fillForm(form.blankPages, form.layout, form.answerTypes, true);
    // And a faint mark in the multiple choice: a grey fill about as dark as the line between a mark and none.
    const multiple = form.taskIds[T.multiple]!;
    const onPage = form.layout.pages.findIndex((p) => p.bubbles.some((b) => b.variantTaskId === multiple));
    const options = form.layout.pages[onPage]!.bubbles.filter((b) => b.variantTaskId === multiple);
    markBubble(filled.pages[onPage]!, options[3]!, { kind: 'disc', grey: 160 });
    const batch = await uploadAndWait(coordinator.session.headers, [
      { filename: 'doubt.pdf', data: await scannedPdf(filled.pages, { rotate: 1 }) },
    ]);
    expect(batch.pages.some((p) => p.status === 'needs_review')).toBe(true);
    const digits = form.taskIds[T.digits]!;
    const stored = await answersOf(form.workId);
    expect(stored.has(digits)).toBe(false);
    // An answer area left empty attaches nothing.
    expect(stored.has(form.taskIds[T.file]!)).toBe(false);
    // The clear tasks of the same page are saved.
    expect(stored.get(form.taskIds[T.single]!)?.value).toBe(
      filled.plan.expected.get(form.taskIds[T.single]!)![0],
    );

    const doubtful = (await itemsOf(coordinator.session.headers, '?kind=doubtful')).items.filter(
      (i) => i.registrationCode === form.registrationCode,
    );
    expect(doubtful).toHaveLength(2);
    const item = doubtful.find((i) => i.variantTaskId === digits)!;
    // The faint mark: not a double mark, under the threshold, not saved until accepted.
    const faint = doubtful.find((i) => i.variantTaskId === multiple)!;
    expect(faint).toMatchObject({ doubleMark: false, answerType: 'multiple_choice' });
    expect(faint.confidence!).toBeLessThan(0.5);
    expect(faint.recognized).toEqual(expect.arrayContaining([options[0]!.value, options[2]!.value]));
    expect((await answersOf(form.workId)).has(multiple)).toBe(false);
    // Its crop shows the options' texts beside the bubbles (across to the form's margin), not the
    // narrow column of bubbles alone.
    const choiceCrop = await sharp((await crop(faint.id, coordinator.session.headers)).rawPayload).metadata();
    expect(choiceCrop.width!).toBeGreaterThan(choiceCrop.height! * 2);
    const accepted = await act(faint.id, coordinator.session.headers, { action: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<ScanReviewItem>()).toMatchObject({ status: 'resolved', resolution: 'accepted' });
    expect((await answersOf(form.workId)).get(multiple)).toMatchObject({ value: faint.recognized, seq: 1 });

    expect(item).toMatchObject({
      variantTaskId: digits,
      doubleMark: true,
      confidence: 0,
      answerType: 'digit_sequence',
      digitColumns: 3,
      taskNumber: 5,
      classId: org.classId,
    });
    expect(item.recognized).toEqual(expect.arrayContaining(['1:3', '1:8']));
    expect(item.choices.find((c) => c.value === '2:6')?.label).toBe('6');
    const png = await crop(item.id, coordinator.session.headers);
    expect([png.statusCode, png.headers['content-type']]).toEqual([200, 'image/png']);

    const accept = await act(item.id, coordinator.session.headers, { action: 'accept' });
    expect([accept.statusCode, accept.json().errors?.[0]?.path]).toEqual([400, 'body.value']);
    const notABubble = await act(item.id, coordinator.session.headers, { action: 'set', value: ['9:9'] });
    expect([notABubble.statusCode, notABubble.json().errors?.[0]?.path]).toEqual([400, 'body.value']);
    const twoInAColumn = await act(item.id, coordinator.session.headers, {
      action: 'set',
      value: ['1:3', '1:8'],
    });
    expect(twoInAColumn.statusCode).toBe(400);
    const dismiss = await act(item.id, coordinator.session.headers, { action: 'dismiss' });
    expect([dismiss.statusCode, dismiss.json().errors?.[0]?.path]).toEqual([400, 'body.action']);
    expect((await answersOf(form.workId)).has(digits)).toBe(false);

    const set = await act(item.id, coordinator.session.headers, {
      action: 'set',
      value: ['1:3', '2:6', '3:9'],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<ScanReviewItem>()).toMatchObject({ status: 'resolved', resolution: 'set' });
    expect((await answersOf(form.workId)).get(digits)).toMatchObject({ value: '369', source: 'staff' });
    const again = await act(item.id, coordinator.session.headers, { action: 'set', value: ['1:1'] });
    expect([again.statusCode, again.json().code]).toEqual([409, 'conflict']);
    expect(
      (await itemsOf(coordinator.session.headers, '?status=resolved&kind=doubtful')).items.map((i) => i.id),
    ).toContain(item.id);
  }, 120_000);
});

describe('grids on the review screen', () => {
  it('a doubtful matching or ordering item carries its legend: what each row and column is', async () => {
    const form = await sitting(OVER);
    const filled = fillForm(form.blankPages, form.layout, form.answerTypes, false);
    // A second mark in the first row of each grid: a double mark, sent to review.
    for (const index of [T.matching, T.ordering]) {
      const id = form.taskIds[index]!;
      const p = form.layout.pages.findIndex((page) => page.bubbles.some((b) => b.variantTaskId === id));
      const grid = form.layout.pages[p]!.bubbles.filter((b) => b.variantTaskId === id);
      const row = grid[0]!.value.slice(0, grid[0]!.value.lastIndexOf(':'));
      const marked = new Set(filled.plan.expected.get(id));
      const extra = grid.find((b) => b.value.startsWith(`${row}:`) && !marked.has(b.value))!;
      markBubble(filled.pages[p]!, extra, { kind: 'disc', grey: 30 });
    }
    await uploadAndWait(coordinator.session.headers, [
      { filename: 'grids.pdf', data: await scannedPdf(filled.pages, { rotate: -1 }) },
    ]);
    const doubtful = (await itemsOf(coordinator.session.headers, '?kind=doubtful&pageSize=200')).items.filter(
      (i) => i.registrationCode === form.registrationCode,
    );
    const matching = doubtful.find((i) => i.variantTaskId === form.taskIds[T.matching])!;
    const ordering = doubtful.find((i) => i.variantTaskId === form.taskIds[T.ordering])!;
    expect(matching).toMatchObject({ doubleMark: true, answerType: 'matching' });
    // As the form lists them: the left items by letter, the right ones by number (tasksOfEveryType).
    expect(matching.legend).toEqual({
      rows: [
        { label: 'А', text: 'А' },
        { label: 'Б', text: 'Б' },
      ],
      columns: [1, 2, 3].map((n) => ({ label: String(n), text: `Вариант ${n}` })),
    });
    expect(ordering).toMatchObject({ doubleMark: true, answerType: 'ordering' });
    expect(ordering.legend).toEqual({
      rows: [1, 2, 3, 4].map((n) => ({ label: String(n), text: `Вариант ${n}` })),
      columns: [1, 2, 3, 4].map((n) => ({ label: String(n), text: '' })),
    });
    // The labels of the bubbles name the same rows and columns.
    expect(matching.choices.map((c) => c.label)).toContain('Б–3');
    // Other items have none; every task item has its crop.
    for (const item of doubtful.filter((i) => i !== matching && i !== ordering))
      expect(item.legend).toBeNull();
    expect(doubtful.every((i) => i.crop && !i.sourceFile && i.problem === null)).toBe(true);
  }, 120_000);
});

describe('a newer clear scan of a doubtful task', () => {
  it("saves the task and closes the older scan's open doubtful item (dismissed)", async () => {
    // A paper work: its form stays the whole variant, so a later scan of a page has the same layout.
    const form = await sitting(PAPER);
    const digits = form.taskIds[T.digits]!;
    const p = form.layout.pages.findIndex((page) => page.bubbles.some((b) => b.variantTaskId === digits));
    const doubt = fillForm(form.blankPages, form.layout, form.answerTypes, true);
    const first = await uploadAndWait(coordinator.session.headers, [
      { filename: 'first.pdf', data: await scannedPdf(doubt.pages, { rotate: 1 }) },
    ]);
    expect(first.pages[p]).toMatchObject({ status: 'needs_review', formPage: p + 1 });
    const mine = async (status: string) =>
      (await itemsOf(coordinator.session.headers, `?kind=doubtful&status=${status}`)).items.filter(
        (i) => i.registrationCode === form.registrationCode && i.variantTaskId === digits,
      );
    const [older] = await mine('open');
    expect(older).toMatchObject({ doubleMark: true });
    expect((await answersOf(form.workId)).has(digits)).toBe(false);

    const clear = fillForm(form.blankPages, form.layout, form.answerTypes, false);
    const second = await uploadAndWait(coordinator.session.headers, [
      { filename: 'second.png', data: await spoil(clear.pages[p]!, { rotate: -1.5 }) },
    ]);
    expect(second.pages[0]).toMatchObject({ status: 'recognized', formPage: p + 1 });
    expect((await answersOf(form.workId)).get(digits)).toMatchObject({ value: '369', source: 'staff' });
    expect(await mine('open')).toEqual([]);
    expect((await mine('resolved')).map((i) => [i.id, i.resolution])).toEqual([[older!.id, 'dismissed']]);
    // Settled: setting the old doubt now is refused and the newer answer stays.
    const late = await act(older!.id, coordinator.session.headers, { action: 'set', value: ['1:1'] });
    expect([late.statusCode, late.json().code]).toEqual([409, 'conflict']);
    expect((await answersOf(form.workId)).get(digits)!.value).toBe('369');
  }, 120_000);
});

describe('pages without a readable code', () => {
  it('waits as unidentified for its uploader, shows the whole page, and is read once a person identifies it', async () => {
    const form = await sitting(OVER);
    const filled = fillForm(form.blankPages, form.layout, form.answerTypes, false);
    const page = filled.pages[0]!;
    // The QR code painted over (top right, clear of the corner mark).
    const mm = 72 / 25.4;
    const s = page.pxPerPt;
    const widthPt = form.layout.pages[0]!.widthPt;
    for (let y = Math.floor(8 * mm * s); y < 34 * mm * s; y++)
      for (let x = Math.floor((widthPt - 46 * mm) * s); x < (widthPt - 19 * mm) * s; x++)
        page.rgba.fill(255, (y * page.width + x) * 4, (y * page.width + x) * 4 + 3);
    const batch = await uploadAndWait(coordinator.session.headers, [
      { filename: 'nocode.png', data: await spoil(page, { rotate: 0.5 }) },
    ]);
    expect(batch.pages[0]).toMatchObject({ status: 'unidentified' });

    const found = await itemsOf(coordinator.session.headers, '?kind=unidentified');
    const item = found.items.find((i) => i.file === 'nocode.png')!;
    expect(item).toMatchObject({ kind: 'unidentified', classId: null, participantName: null });
    expect(found.counts.find((c) => c.classId === null)?.open).toBeGreaterThanOrEqual(1);
    const png = await crop(item.id, coordinator.session.headers);
    expect(png.statusCode).toBe(200);
    const meta = await sharp(png.rawPayload).metadata();
    expect(meta.height! / meta.width!).toBeCloseTo(841.89 / 595.28, 1);

    // Another coordinator of the same school did not upload it: not theirs to see.
    const colleague = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await crop(item.id, colleague.session.headers)).statusCode).toBe(403);
    expect((await itemsOf(colleague.session.headers)).items.some((i) => i.id === item.id)).toBe(false);

    const unknown = await act(item.id, coordinator.session.headers, {
      action: 'identify',
      registrationCode: 'NO-SUCH-CODE',
      formPage: 1,
    });
    expect([unknown.statusCode, unknown.json().errors?.[0]?.path]).toEqual([400, 'body.registrationCode']);
    const noPage = await act(item.id, coordinator.session.headers, {
      action: 'identify',
      registrationCode: form.registrationCode,
      formPage: 99,
    });
    expect([noPage.statusCode, noPage.json().errors?.[0]?.path]).toEqual([400, 'body.formPage']);
    expect((await answersOf(form.workId)).size).toBe(0);

    const identified = await act(item.id, coordinator.session.headers, {
      action: 'identify',
      registrationCode: form.registrationCode,
      formPage: 1,
    });
    expect(identified.statusCode, identified.body).toBe(200);
    expect(identified.json<ScanReviewItem>()).toMatchObject({ status: 'resolved', resolution: 'identified' });
    const stored = await answersOf(form.workId);
    const onPage = new Set(form.layout.pages[0]!.bubbles.map((b) => b.variantTaskId));
    expect(onPage.size).toBeGreaterThan(0);
    for (const taskId of onPage)
      expect(stored.get(taskId)?.value, `task ${form.taskIds.indexOf(taskId)}`).toEqual(
        meant(form, filled.plan).get(taskId),
      );
  }, 120_000);
});

describe('pages identified but not read', () => {
  it('a page with a corner mark missing waits as unreadable; only dismiss settles it, and changes no answer', async () => {
    const page = copyPage(paper.blankPages[0]!);
    const mark = paper.layout.pages[0]!.marks.find((m) => m.x < 100 && m.y > 400)!;
    const s = page.pxPerPt;
    for (let y = Math.floor((mark.y - mark.size) * s); y < (mark.y + mark.size) * s; y++)
      for (let x = Math.floor((mark.x - mark.size) * s); x < (mark.x + mark.size) * s; x++)
        page.rgba.fill(255, (y * page.width + x) * 4, (y * page.width + x) * 4 + 3);
    const before = await answersOf(paper.workId);
    const batch = await uploadAndWait(coordinator.session.headers, [
      { filename: 'nomark.png', data: await spoil(page, {}) },
    ]);
    expect(batch.pages[0]).toMatchObject({
      status: 'needs_review',
      registrationCode: paper.registrationCode,
    });
    const item = (await itemsOf(coordinator.session.headers, '?kind=unreadable')).items.find(
      (i) => i.file === 'nomark.png',
    )!;
    expect(item).toMatchObject({
      kind: 'unreadable',
      classId: org.classId,
      formPage: 1,
      variantTaskId: null,
      choices: [],
    });
    expect((await crop(item.id, coordinator.session.headers)).statusCode).toBe(200);
    const accept = await act(item.id, coordinator.session.headers, { action: 'accept' });
    expect([accept.statusCode, accept.json().errors?.[0]?.path]).toEqual([400, 'body.action']);
    const dismissed = await act(item.id, coordinator.session.headers, { action: 'dismiss' });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json<ScanReviewItem>()).toMatchObject({ status: 'resolved', resolution: 'dismissed' });
    expect(await answersOf(paper.workId)).toEqual(before);
  }, 60_000);
});

describe('access to the review calls', () => {
  it('401 without a session, 403 for other roles, other schools and a cookie POST without the anti-CSRF header; 400 for bad input; 404 unknown', async () => {
    const item = (await itemsOf(coordinator.session.headers, '?status=resolved')).items.find(
      (i) => i.registrationCode === paper.registrationCode,
    )!;
    expect(item).toBeDefined();
    expect((await list({})).statusCode).toBe(401);
    expect((await crop(item.id, {})).statusCode).toBe(401);
    expect((await act(item.id, {}, { action: 'dismiss' })).statusCode).toBe(401);

    for (const role of ['expert', 'participant'] as const) {
      const { session } = await signedIn(t.app, [role]);
      expect((await list(session.headers)).statusCode).toBe(403);
      expect((await crop(item.id, session.headers)).statusCode).toBe(403);
      expect((await act(item.id, session.headers, { action: 'dismiss' })).statusCode).toBe(403);
    }
    const stranger = await signedIn(t.app, ['coordinator'], { schoolId: (await createOrg(t.app)).schoolId });
    expect((await crop(item.id, stranger.session.headers)).statusCode).toBe(403);
    expect((await act(item.id, stranger.session.headers, { action: 'dismiss' })).statusCode).toBe(403);
    const theirs = await itemsOf(stranger.session.headers, '?status=resolved');
    expect(theirs).toEqual({ counts: [], items: [], total: 0 });
    const unassigned = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    expect((await crop(item.id, unassigned.session.headers)).statusCode).toBe(403);
    expect((await itemsOf(unassigned.session.headers, '?status=resolved')).total).toBe(0);
    // An organizator assigned to the class reaches its items, in the list and one by one.
    const assigned = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    await t.app.ctx.db
      .insert(organizatorAssignments)
      .values({ userId: assigned.user.id, classId: org.classId });
    const seen = await itemsOf(assigned.session.headers, `?status=resolved&classId=${org.classId}`);
    expect(seen.items.map((i) => i.id)).toContain(item.id);
    expect(seen.items.every((i) => i.classId === org.classId)).toBe(true);
    expect(seen.counts.every((c) => c.classId === org.classId)).toBe(true);
    expect((await crop(item.id, assigned.session.headers)).statusCode).toBe(200);
    const admin = await signedIn(t.app, ['admin']);
    expect((await crop(item.id, admin.session.headers)).statusCode).toBe(200);

    const csrf = await act(item.id, { cookie: coordinator.session.cookie }, { action: 'dismiss' });
    expect([csrf.statusCode, csrf.json().code]).toEqual([403, 'csrf']);

    expect((await list(coordinator.session.headers, '?pageSize=0')).statusCode).toBe(400);
    expect((await list(coordinator.session.headers, '?kind=other')).statusCode).toBe(400);
    const bad = await act(item.id, coordinator.session.headers, { action: 'guess' });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'validation_failed']);
    const badValue = await act(item.id, coordinator.session.headers, { action: 'set', value: 'o1' });
    expect([badValue.statusCode, badValue.json().code]).toEqual([400, 'validation_failed']);
    expect((await crop('abc', coordinator.session.headers)).statusCode).toBe(400);
    expect((await crop(999_999, coordinator.session.headers)).statusCode).toBe(404);
    expect((await act(999_999, coordinator.session.headers, { action: 'dismiss' })).statusCode).toBe(404);
  }, 60_000);
});

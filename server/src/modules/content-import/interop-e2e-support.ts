import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  createOrg,
  createParticipantTest,
  signedInParticipant,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { participantTests, taskScores } from '../../db/schema/index.js';

/*
 * The HTTP round of the content import tests (interop-e2e.test.ts): a file
 * imported as the admin does it (POST, then GET until done), imported tasks put in a variant of a
 * published subject test through the authoring calls, and that test taken by a participant (examwork/new,
 * variant/current, saveanswer, finish, the scoring job) to read each task's score.
 */

export interface ImportReportItem {
  sourceId: string;
  title: string;
  taskId: number | null;
  answerType: string | null;
  outcome: 'imported' | 'converted' | 'refused';
  notes: string[];
}

export interface ImportState {
  status: 'queued' | 'running' | 'done' | 'failed';
  error?: { code: string; message: string };
  items: ImportReportItem[];
  subjectTestIds: number[];
}

/** What the runner receives for one task (GET variant/current). */
export interface RunnerTask {
  variantTaskId: number;
  position: number;
  answerType: string;
  html: string;
  content: Record<string, unknown>;
  maxScore: number;
  files: { id: number }[];
}

/** Keys of the task definition no participant may see, anywhere in what the runner gets. */
export const SECRET_KEYS = ['reference', 'scoring', 'correct', 'mapping', 'solutionHtml', 'criteria'];

/** Every key anywhere inside a JSON value. */
export function keysOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      keysOf(v, into);
    }
  return into;
}

/** A multipart/form-data body: text fields, then files. */
export function formBody(
  parts: ({ name: string; value: string } | { name: string; filename: string; data: Buffer })[],
) {
  const boundary = `----interop${Math.random().toString(16).slice(2)}`;
  const chunks = parts.flatMap((p) => [
    Buffer.from(
      'filename' in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n'
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}`,
    ),
    ...('filename' in p ? [p.data] : []),
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export function adminCalls(t: TestApp, admin: Session) {
  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: admin.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const ok = async <T>(res: Promise<{ statusCode: number; body: string; json: () => unknown }>) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as T;
  };

  /** Uploads a file, then asks for its state until the job has done with it. */
  async function importFile(fileName: string, data: Buffer, subjectId?: number): Promise<ImportState> {
    const body = formBody([
      ...(subjectId === undefined ? [] : [{ name: 'subjectId', value: String(subjectId) }]),
      { name: 'file', filename: fileName, data },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/content/import',
      headers: { ...admin.headers, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode, `${fileName}: ${res.body}`).toBe(202);
    const { importId } = res.json() as { importId: number };
    for (let round = 0; round < 10; round++) {
      const state = await ok<ImportState>(send('GET', `/api/admin/content/import/${importId}`));
      if (state.status === 'done' || state.status === 'failed') return state;
      await t.app.jobs.drain();
    }
    throw new Error(`${fileName}: the import never finished`);
  }

  /** A subject with its diagnostic exam, made through the authoring calls. */
  async function subject(name: string): Promise<{ subjectId: number; examId: number }> {
    const { id: subjectId } = await ok<{ id: number }>(send('POST', '/api/admin/content/subjects', { name }));
    const { id: examId } = await ok<{ id: number }>(
      send('POST', `/api/admin/content/subjects/${subjectId}/exams`, {
        kind: 'diagnostic',
        name: 'Диагностика',
      }),
    );
    return { subjectId, examId };
  }

  /** A mark scale every step of which a variant of `max` points reaches. */
  const scaleFor = (max: number) => [
    { mark: '5', minScore: max },
    { mark: '2', minScore: 0 },
  ];

  /**
   * A subject test of the exam with one variant of the tasks (in order), its mark scale fixed to
   * the variant's max score, published: the answer of the publish call.
   */
  async function publishedTest(examId: number, name: string, taskIds: number[]) {
    const body = { subjectExamId: examId, name, parallels: [7], durationMinutes: 90 };
    const { id } = await ok<{ id: number }>(send('POST', '/api/admin/content/subjectTests', body));
    const variant = await ok<{ id: number; maxScore: number }>(
      send('POST', `/api/admin/content/subjectTests/${id}/variants`, {
        tasks: taskIds.map((taskId) => ({ taskId })),
      }),
    );
    await ok(
      send('PUT', `/api/admin/content/subjectTests/${id}`, {
        ...body,
        markScale: scaleFor(variant.maxScore),
      }),
    );
    const published = await send('POST', `/api/admin/content/subjectTests/${id}/publish`);
    return { subjectTestId: id, variantId: variant.id, maxScore: variant.maxScore, published };
  }

  /** Makes an imported draft test publishable (its mark scale) and publishes it. */
  async function publishImportedTest(subjectTestId: number) {
    const test = await ok<{
      subjectExamId: number;
      name: string;
      parallels: number[];
      durationMinutes: number;
    }>(send('GET', `/api/admin/content/subjectTests/${subjectTestId}`));
    const [variant] = await ok<{ id: number; maxScore: number }[]>(
      send('GET', `/api/admin/content/subjectTests/${subjectTestId}/variants`),
    );
    const body = {
      subjectExamId: test.subjectExamId,
      name: test.name,
      parallels: test.parallels.length ? test.parallels : [7],
      durationMinutes: test.durationMinutes,
      markScale: scaleFor(variant!.maxScore),
    };
    await ok(send('PUT', `/api/admin/content/subjectTests/${subjectTestId}`, body));
    return send('POST', `/api/admin/content/subjectTests/${subjectTestId}/publish`);
  }

  /** The QTI 3.0 package of a subject test. */
  async function exportQti3(subjectTestId: number): Promise<Buffer> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/content/subjectTests/${subjectTestId}/export?format=qti3`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    return res.rawPayload;
  }

  return { send, ok, importFile, subject, publishedTest, publishImportedTest, exportQti3 };
}

/**
 * A participant (a student of a new school) of the subject test takes it: starts the work, reads
 * the variant as the runner does, loads the files it shows, saves the answer `answer` gives for
 * each task (none: left empty), finishes; the scoring job runs. Returns the runner's tasks (and the
 * raw answer), the files as loaded, and each position's final score (null: awaiting experts).
 */
export async function takeTest(
  t: TestApp,
  subjectTestId: number,
  answer: (task: RunnerTask) => unknown,
): Promise<{
  tasks: RunnerTask[];
  scores: Map<number, number | null>;
  files: Map<number, { status: number; type: string; data: Buffer }>;
  body: string;
}> {
  const org = await createOrg(t.app);
  const pt = await createParticipantTest(t.app, org, { studentId: org.studentIds[0] });
  await t.app.ctx.db
    .update(participantTests)
    .set({ subjectTestId })
    .where(eq(participantTests.id, pt.participantTestId));
  const { session } = await signedInParticipant(t.app, { ...pt, subjectTestId });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/exam/test/${url}`,
      headers: session.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const started = await call('POST', 'examwork/new', {});
  expect(started.statusCode, started.body).toBe(200);
  const workId = (started.json() as { id: number }).id;
  const current = await call('GET', 'variant/current');
  expect(current.statusCode, current.body).toBe(200);
  const tasks = (current.json() as { tasks: RunnerTask[] }).tasks;

  let seq = 0;
  for (const task of tasks) {
    const value = answer(task);
    if (value === undefined) continue;
    const saved = await call('PUT', 'saveanswer', {
      examWorkId: workId,
      variantTaskId: task.variantTaskId,
      value,
      seq: ++seq,
    });
    expect(saved.statusCode, `task ${task.position} (${task.answerType}): ${saved.body}`).toBe(200);
  }
  // The files the runner shows (the task's files, a hotspot picture): the participant may load each.
  const files = new Map<number, { status: number; type: string; data: Buffer }>();
  for (const id of tasks.flatMap((task) => [...task.files.map((f) => f.id), ...imageFileIds(task.content)])) {
    const res = await t.app.inject({ method: 'GET', url: `/api/files/${id}`, headers: session.headers });
    files.set(id, {
      status: res.statusCode,
      type: String(res.headers['content-type']),
      data: res.rawPayload,
    });
  }
  const finished = await call('PUT', `examwork/finish/${workId}/manual`);
  expect(finished.statusCode, finished.body).toBe(200);
  await t.app.jobs.drain();

  const rows = await t.app.ctx.db.select().from(taskScores).where(eq(taskScores.examWorkId, workId));
  const byVariantTask = new Map(rows.map((r) => [r.variantTaskId, r.finalScore]));
  const scores = new Map(tasks.map((task) => [task.position, byVariantTask.get(task.variantTaskId) ?? null]));
  return { tasks, scores, files, body: current.body };
}

/** File ids of the pictures a content shows by id (a hotspot's image, in a composite part too). */
export function imageFileIds(content: unknown): number[] {
  if (Array.isArray(content)) return content.flatMap(imageFileIds);
  if (!content || typeof content !== 'object') return [];
  return Object.entries(content as Record<string, unknown>).flatMap(([k, v]) =>
    k === 'image' && v && typeof v === 'object' && typeof (v as { fileId?: unknown }).fileId === 'number'
      ? [(v as { fileId: number }).fileId]
      : imageFileIds(v),
  );
}

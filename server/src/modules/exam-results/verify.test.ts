import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnostics, results } from '../../db/schema/index.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/results/verify/{code}', () => {
  it('confirms a genuine document: details only once published; unknown codes are throttled', async () => {
    const org = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, org, { studentId: org.studentIds[0] });
    const variant = await createVariantWithTasks(t.app, pt.subjectTestId, [
      { answerType: 'short_text', content: {} },
    ]);
    const workId = await createExamWork(t.app, pt.participantTestId, variant.variantId);
    await t.app.ctx.db.insert(results).values({
      examWorkId: workId,
      participantTestId: pt.participantTestId,
      diagnosticId: pt.diagnosticId,
      subjectTestId: pt.subjectTestId,
      status: 'scored',
      primaryScore: 7,
      maxScore: 10,
      percent: 70,
      mark: '4',
      verificationCode: 'R-TEST-7K2Q',
    });
    const get = (code: string) => t.app.inject({ method: 'GET', url: `/api/results/verify/${code}` });

    const before = await get('r-test-7k2q');
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({
      valid: true,
      published: false,
      participant: null,
      primaryScore: null,
    });

    await t.app.ctx.db
      .update(diagnostics)
      .set({ resultsPublished: true })
      .where(eq(diagnostics.id, pt.diagnosticId));
    const after = (await get('R-TEST-7K2Q')).json();
    expect(after).toMatchObject({ valid: true, published: true, primaryScore: 7, maxScore: 10, mark: '4' });
    expect(after.participant).toBe('Иванов И.');

    expect((await get('R-NONE-0000')).json()).toMatchObject({ valid: false });
    expect((await get('bad code!')).statusCode).toBe(400);
  });
});

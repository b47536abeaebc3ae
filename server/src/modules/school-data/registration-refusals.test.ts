import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDiagnosticFor,
  createSchoolWithStaff,
  createTestApp,
  type DiagnosticFixture,
  type SchoolWithStaff,
  type TestApp,
} from '../../../test/helpers.js';
import { schoolDay } from '../../lib/calendar.js';

/*
 * A refused registration says what is wrong by code and params, for the interface to name it: a date
 * outside the diagnostic's window gives the window's first and last day, a subject test the diagnostic
 * does not hold says so — through the school's registration and the calls sharing
 * lib/participant-tests (impersonal codes here).
 */

let t: TestApp;
let a: SchoolWithStaff;
let other: SchoolWithStaff;
let d: DiagnosticFixture;
const DAY = 86_400_000;
const startsAt = new Date(Date.now() - DAY);
const endsAt = new Date(Date.now() + 4 * DAY);
const from = schoolDay(startsAt);
const to = schoolDay(endsAt);
const late = schoolDay(new Date(Date.now() + 30 * DAY));

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  other = await createSchoolWithStaff(t.app);
  d = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId], testParallels: [7], startsAt, endsAt });
});
afterAll(async () => t.close());

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: a.coordinator.session.headers, payload });

describe('registration refusals carry their code and params', () => {
  it("a date outside the window: outside_window with the window's days and the date asked", async () => {
    const res = await post('/api/coordinator/participantTest/save', {
      diagnosticId: d.diagnosticId,
      subjectTestId: d.subjectTestId,
      testDate: late,
      classIds: [a.classId],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'body.testDate', code: 'outside_window', params: { from, to, date: late } }],
    });
  });

  it('a subject test the diagnostic does not hold: not_in_diagnostic', async () => {
    const elsewhere = await createDiagnosticFor(t.app, { schoolIds: [other.schoolId] });
    const res = await post('/api/coordinator/participantTest/save', {
      diagnosticId: d.diagnosticId,
      subjectTestId: elsewhere.subjectTestId,
      testDate: from,
      classIds: [a.classId],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ path: 'body.subjectTestId', code: 'not_in_diagnostic' }),
    ]);
  });

  it('the shared registration rules (impersonal codes) say the same', async () => {
    const res = await post('/api/ParticipantTest/participantTestCreateImpersonal', {
      diagnosticId: d.diagnosticId,
      subjectTestId: d.subjectTestId,
      testDate: late,
      count: 1,
      classId: a.classId,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ code: 'outside_window', params: { from, to, date: late } }),
    ]);
  });
});

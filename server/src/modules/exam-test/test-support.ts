import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import {
  createOrg,
  createParticipantTest,
  createVariantWithTasks,
  signedInParticipant,
  tasksOfEveryType,
  type OrgFixture,
  type Session,
} from '../../../test/helpers.js';
import { examWorks, participantTests } from '../../db/schema/index.js';

/* Shared by this module's tests: a room ready to start, and short request helpers. */

export const SECRET = 'ZZLEAKMARKERZZ';

export interface Call {
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  del(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export function caller(app: FastifyInstance, session: Session | null, device?: string): Call {
  const base = { ...(session?.headers ?? {}), ...(device ? { 'x-device-id': device } : {}) };
  const send = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown, headers = {}) =>
    app.inject({
      method,
      url: `/api/exam/test/${url}`,
      headers: { ...base, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url, headers) => send('GET', url, undefined, headers),
    put: (url, payload, headers) => send('PUT', url, payload ?? {}, headers),
    post: (url, payload, headers) => send('POST', url, payload ?? {}, headers),
    del: (url, headers) => send('DELETE', url, undefined, headers),
  };
}

export interface Room {
  org: OrgFixture;
  subjectTestId: number;
  diagnosticId: number;
  participantTestId: number;
  registrationCode: string;
  activationCode: string;
  variantTaskIds: number[];
  variantId: number;
  session: Session;
  userId: number;
  api: Call;
}

/** A participant test of every answer type, signed in; `start` also opens the work. */
export async function createRoom(app: FastifyInstance, org?: OrgFixture, studentIndex = 0): Promise<Room> {
  const place = org ?? (await createOrg(app));
  const pt = await createParticipantTest(app, place, { studentId: place.studentIds[studentIndex] });
  const variant = await createVariantWithTasks(app, pt.subjectTestId, tasksOfEveryType(SECRET));
  const { user, session } = await signedInParticipant(app, pt);
  const [row] = await app.ctx.db
    .select({ code: participantTests.registrationCode })
    .from(participantTests)
    .where(eq(participantTests.id, pt.participantTestId));
  return {
    org: place,
    subjectTestId: pt.subjectTestId,
    diagnosticId: pt.diagnosticId,
    participantTestId: pt.participantTestId,
    registrationCode: row!.code,
    activationCode: pt.activationCode,
    variantTaskIds: variant.variantTaskIds,
    variantId: variant.variantId,
    session,
    userId: user.id,
    api: caller(app, session),
  };
}

/** Starts the room's work and returns its id. */
export async function startWork(room: Room): Promise<number> {
  const res = await room.api.post('examwork/new', {});
  if (res.statusCode !== 200) throw new Error(`examwork/new ${res.statusCode}: ${res.body}`);
  return (res.json() as { id: number }).id;
}

/** Moves a work's clock back by `seconds` (as if it started that much earlier). */
export async function shiftWork(app: FastifyInstance, id: number, seconds: number) {
  const [w] = await app.ctx.db.select().from(examWorks).where(eq(examWorks.id, id));
  const shift = (d: Date | null) => (d ? new Date(d.getTime() - seconds * 1000) : null);
  await app.ctx.db
    .update(examWorks)
    .set({ startedAt: shift(w!.startedAt)!, deadlineAt: shift(w!.deadlineAt)!, pausedAt: shift(w!.pausedAt) })
    .where(eq(examWorks.id, id));
}

/** Index of each answer type in tasksOfEveryType(). */
export const T = {
  single: 0,
  multiple: 1,
  short: 2,
  number: 3,
  digits: 4,
  ordering: 5,
  matching: 6,
  cloze: 7,
  extended: 8,
  file: 9,
} as const;

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Session } from '../../../test/helpers.js';

/* Shared pieces of the authoring tests (imported by *.test.ts only). */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export function api(app: FastifyInstance, session: Session) {
  const send = (method: Method, url: string, payload?: unknown, as: Session | null = session) =>
    app.inject({
      method,
      url,
      headers: as?.headers ?? { 'x-requested-with': 'XMLHttpRequest' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    send,
    get: (url: string) => send('GET', url),
    post: (url: string, payload: unknown = {}) => send('POST', url, payload),
    put: (url: string, payload: unknown) => send('PUT', url, payload),
    del: (url: string) => send('DELETE', url),
  };
}

export const ok = <T = Record<string, unknown>>(res: LightMyRequestResponse): T => {
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
  return res.json() as T;
};

const options = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `o${i + 1}`, html: `Ответ ${i + 1}` }));

/** A single-choice task body (options o1…o4, the key `correct`). */
export const singleChoice = (subjectId: number, extra: Record<string, unknown> = {}) => ({
  subjectId,
  answerType: 'single_choice',
  html: '<p>Сколько будет 2 + 2?</p>',
  content: { options: options(4) },
  reference: { correct: 'o2' },
  scoring: { method: 'all_or_nothing' },
  maxScore: 1,
  ...extra,
});

/** An extended-text task body graded by experts (criteria in half points). */
export const essay = (subjectId: number, extra: Record<string, unknown> = {}) => ({
  subjectId,
  answerType: 'extended_text',
  html: '<p>Напишите рассуждение</p>',
  content: { maxLength: 2000 },
  reference: null,
  scoring: { method: 'expert' },
  maxScore: 2,
  criteria: [{ code: 'К1', text: 'Тезис сформулирован', maxScore: 2, step: 0.5 }],
  ...extra,
});

/** A task body for PUT: the subject stays with the task. */
export const forUpdate = ({
  subjectId: _subjectId,
  ...body
}: { subjectId: number } & Record<string, unknown>) => body;

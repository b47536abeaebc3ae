/* The participant's questionnaire before the test. */
import { type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { cachedSubjectTest } from './content-cache.js';
import * as repo from './exam-work.repo.js';

import { boundTest, type Actor } from './work-guards.js';

// ------------------------------------------------------------------ quiz

type QuizQuestion = {
  id: string;
  kind: 'single' | 'multiple' | 'text';
  options?: { id: string }[];
  required?: boolean;
};

async function quizOfSession(ctx: AppContext, auth: AuthContext) {
  const pt = await boundTest(ctx.db, auth);
  const st = await cachedSubjectTest(ctx.db, pt.subjectTestId);
  const quiz = st?.quizId ? await repo.findQuiz(ctx.db, st.quizId) : null;
  return { pt, quiz };
}

export async function getQuiz(ctx: AppContext, auth: AuthContext) {
  const { pt, quiz } = await quizOfSession(ctx, auth);
  if (!quiz) return { quiz: null, answers: null };
  const saved = await repo.findQuizAnswers(ctx.db, pt.id);
  return {
    quiz: {
      id: quiz.id,
      name: quiz.name,
      questions: quiz.questions.map((q) => ({
        id: q.id,
        text: q.text,
        kind: q.kind,
        ...(q.options ? { options: q.options.map((o) => ({ id: o.id, text: o.text })) } : {}),
        ...(q.required !== undefined ? { required: q.required } : {}),
      })),
    },
    answers: saved?.answers ?? null,
  };
}

export async function saveQuiz(ctx: AppContext, actor: Actor, answers: Record<string, string | string[]>) {
  const { pt, quiz } = await quizOfSession(ctx, actor.auth);
  if (!quiz) throw notFound('This test has no questionnaire');
  const errors = quizProblems(quiz.questions, answers);
  if (errors.length)
    throw badRequest(
      'invalid_quiz_answer',
      `The questionnaire answers are invalid: ${errors[0]!.path} ${errors[0]!.message}`,
      errors,
    );
  const savedAt = await repo.upsertQuizAnswers(ctx.db, {
    participantTestId: pt.id,
    quizId: quiz.id,
    answers,
  });
  return { savedAt: savedAt.toISOString() };
}

export function quizProblems(questions: QuizQuestion[], answers: Record<string, string | string[]>) {
  const errors: { path: string; message: string }[] = [];
  const byId = new Map(questions.map((q) => [q.id, q]));
  for (const [id, a] of Object.entries(answers)) {
    const q = byId.get(id);
    const path = `body.answers.${id}`;
    const options = new Set((q?.options ?? []).map((o) => o.id));
    if (!q) errors.push({ path, message: 'no such question' });
    else if (
      q.kind === 'multiple' &&
      (!Array.isArray(a) || a.some((x) => !options.has(x)) || new Set(a).size !== a.length)
    )
      errors.push({ path, message: 'expected distinct option ids' });
    else if (q.kind === 'single' && (typeof a !== 'string' || (a !== '' && !options.has(a))))
      errors.push({ path, message: 'expected one option id' });
    else if (q.kind === 'text' && typeof a !== 'string') errors.push({ path, message: 'expected text' });
  }
  for (const q of questions) {
    const a = answers[q.id];
    const empty = a === undefined || (typeof a === 'string' ? a.trim() === '' : a.length === 0);
    if (q.required && empty) errors.push({ path: `body.answers.${q.id}`, message: 'required' });
  }
  return errors;
}

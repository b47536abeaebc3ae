import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { addressKey } from '../../auth/throttle.js';
import { diagnostics, participantTests, results, students, subjectTests } from '../../db/schema/index.js';

const invalid = {
  valid: false,
  published: false,
  diagnosticName: null,
  subjectTestName: null,
  testDate: null,
  participant: null,
  primaryScore: null,
  maxScore: null,
  mark: null,
};

const initials = (s: { surname: string; name: string; patronymic: string | null } | null) =>
  s ? `${s.surname} ${s.name[0]}.${s.patronymic ? ` ${s.patronymic[0]}.` : ''}` : null;

/**
 * GET /api/results/verify/{code}: anyone holding a result document can check it is genuine — the
 * code printed (and in the QR) on every result PDF. Not a call of the specification: the result
 * documents need it. Unknown codes count against the caller's address (a plain limit: not a login).
 */
export const resultVerifyRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.route({
    ...contractRoute('GET /api/results/verify/{code}', {
      summary: 'Check a result document by its verification code',
      tags: ['exam-results'],
      errors: [400, 429],
    }),
    handler: async (req) => {
      const { db, throttle } = app.ctx;
      // Taken before the lookup; a genuine document gives it back (only unknown codes count).
      const reservation = await throttle.reserve({ verifyIp: addressKey(req.ip) });
      const [row] = await db
        .select({
          published: diagnostics.resultsPublished,
          diagnosticName: diagnostics.name,
          subjectTestName: subjectTests.name,
          testDate: participantTests.testDate,
          student: { surname: students.surname, name: students.name, patronymic: students.patronymic },
          primaryScore: results.primaryScore,
          maxScore: results.maxScore,
          mark: results.mark,
        })
        .from(results)
        .innerJoin(participantTests, eq(participantTests.id, results.participantTestId))
        .innerJoin(diagnostics, eq(diagnostics.id, results.diagnosticId))
        .innerJoin(subjectTests, eq(subjectTests.id, results.subjectTestId))
        .leftJoin(students, eq(students.id, participantTests.studentId))
        .where(and(eq(results.verificationCode, req.params.code.toUpperCase())));
      if (!row) return invalid;
      await reservation.release();
      if (!row.published) return { ...invalid, valid: true };
      return {
        valid: true,
        published: true,
        diagnosticName: row.diagnosticName,
        subjectTestName: row.subjectTestName,
        testDate: row.testDate,
        participant: initials(row.student?.surname ? row.student : null),
        primaryScore: Number(row.primaryScore),
        maxScore: Number(row.maxScore),
        mark: row.mark,
      };
    },
  });
};

/** Equating tables of a subject test in a diagnostic (issue 28): read, adopt, cut scores. */
import type { CutScoresDto } from '@attesta/contract';
import { call } from '../../../lib/call';

export const equating = (diagnosticId: number, subjectTestId: number, signal?: AbortSignal) =>
  call(
    'GET /api/reports/equating',
    { query: { diagnosticId, subjectTestId } },
    { suppressRedirect: true, signal },
  );

export const adoptEquating = (diagnosticId: number, subjectTestId: number) =>
  call(
    'POST /api/reports/equating/adopt',
    { body: { diagnosticId, subjectTestId } },
    { suppressRedirect: true },
  );

export const setCutScores = (diagnosticId: number, subjectTestId: number, cutScores: CutScoresDto) =>
  call(
    'PUT /api/reports/equating/cutScores',
    { body: { diagnosticId, subjectTestId, cutScores } },
    { suppressRedirect: true },
  );

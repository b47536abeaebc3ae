/** Item analysis of a subject test in a diagnostic (GET /api/reports/itemAnalysis). */
import { call } from '../../../lib/call';

export const itemAnalysis = (diagnosticId: number, subjectTestId: number, signal?: AbortSignal) =>
  call(
    'GET /api/reports/itemAnalysis',
    { query: { diagnosticId, subjectTestId } },
    { suppressRedirect: true, signal },
  );

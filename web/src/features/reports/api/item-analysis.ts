/** Item analysis of a subject test in a diagnostic (GET /api/reports/itemAnalysis). */
import { call } from '../../../lib/call';
import { inlineCall } from '../../../lib/inline-call';

export const itemAnalysis = (diagnosticId: number, subjectTestId: number, signal?: AbortSignal) =>
  inlineCall(() =>
    call(
      'GET /api/reports/itemAnalysis',
      { query: { diagnosticId, subjectTestId } },
      { suppressRedirect: true, signal },
    ),
  );

import { queryOptions } from '@tanstack/react-query';
import { apiClient, ApiError, type ApiClient } from '../../../lib/api-client';

/**
 * What the home shows of `GET /api/exam/test/currentParticipantTest`. The contract has no schema
 * for it yet, so every field is optional and read defensively; unknown fields are ignored.
 */
export interface ParticipantTestSummary {
  id?: number;
  subjectTestName?: string;
  diagnosticName?: string;
  date?: string;
  status?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

export function readParticipantTest(data: unknown): ParticipantTestSummary {
  if (!data || typeof data !== 'object') return {};
  const r = data as Record<string, unknown>;
  const nested = (key: string) =>
    r[key] && typeof r[key] === 'object' ? (r[key] as Record<string, unknown>) : {};
  return {
    id: typeof r.id === 'number' ? r.id : undefined,
    subjectTestName: text(r.subjectTestName) ?? text(nested('subjectTest').name),
    diagnosticName: text(r.diagnosticName) ?? text(nested('diagnostic').name),
    date: text(r.date) ?? text(r.testDate),
    status: text(r.status),
  };
}

/**
 * Suppressed: until the runner exists the server answers 501 `not_implemented`, which is an
 * expected state of this page, not an error to send the participant away for.
 */
export function currentParticipantTestQuery(client: ApiClient = apiClient) {
  return queryOptions({
    queryKey: ['participant', 'current-test'],
    queryFn: async ({ signal }) => {
      try {
        return readParticipantTest(
          await client.get('/api/exam/test/currentParticipantTest', { signal, suppressRedirect: true }),
        );
      } catch (error) {
        // Suppression is for "not built yet"; a session that is gone still goes to the unauthorized page.
        if (error instanceof ApiError && error.status === 401) client.redirectFor(error);
        throw error;
      }
    },
  });
}

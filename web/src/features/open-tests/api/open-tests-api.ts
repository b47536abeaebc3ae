/** Calls of a guest's open tests (docs/open-tests.md). */
import { DEVICE_HEADER } from '@attesta/contract';
import { call } from '../../../lib/call';
import { getDeviceId } from '../../../lib/device-id';

export const openTestsKeys = { list: ['open-tests', 'list'] as const };

export const listOpenTests = (signal?: AbortSignal) =>
  call('GET /api/openTests', {}, { signal, suppressRedirect: true });

/**
 * Starts or resumes an attempt: the session then sits it. The runner's device header goes with it,
 * so the work is bound to this browser as the runner's own start binds it.
 */
export const startAttempt = (subjectTestId: number) =>
  call(
    'POST /api/openTests/{subjectTestId}/attempt',
    { params: { subjectTestId } },
    { suppressRedirect: true, headers: { [DEVICE_HEADER]: getDeviceId() } },
  );

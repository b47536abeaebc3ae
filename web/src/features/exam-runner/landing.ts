import { createExamApi, type ExamApi } from './api/exam-api';

/**
 * Where a signed-in participant's work is: the runner when a work runs on this device, otherwise
 * the start page (which says what comes next: the start, another device, the finished work).
 */
export async function participantLanding(api: ExamApi = createExamApi()): Promise<string> {
  try {
    const test = await api.currentParticipantTest();
    const status = test.examWork?.status;
    const running = status === 'in_progress' || status === 'paused' || status === 'new';
    return running && !test.openElsewhere ? '/participant/work' : '/participant';
  } catch {
    return '/participant';
  }
}

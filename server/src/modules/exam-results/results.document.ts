import type { AuthContext } from '../../auth/types.js';
import type { Db } from '../../db/client.js';
import * as workRepo from '../exam-test/index.js';
import { preprofView } from './result-views.js';
import { resultAccess } from './results.access.js';
import { resultPdf } from './results.pdf.js';
import { loadResult, toExamResult } from './results.read.js';

/**
 * The PDF result report of a participant test the caller may read: totals, tasks, elements and
 * the verification code (as text and QR of `<origin>/verify/<code>`); `preprof` adds the theory and
 * practice parts.
 */
export async function resultDocument(
  db: Db,
  auth: AuthContext,
  ptId: number,
  preprof: boolean,
  origin: string,
) {
  const { pt } = await resultAccess(db, auth, ptId);
  const loaded = await loadResult(db, pt);
  const place = await workRepo.findParticipantPerson(db, pt);
  const p = place.person;
  const parts = preprof ? preprofView(loaded) : null;
  const result = toExamResult(loaded);
  return resultPdf({
    result,
    diagnosticName: pt.diagnosticName,
    participantName: p ? [p.surname, p.name, p.patronymic].filter(Boolean).join(' ') : 'Участник',
    schoolName: place.schoolName,
    className: place.className,
    testDate: pt.testDate,
    verifyUrl: `${origin}/verify/${result.verificationCode}`,
    ...(parts ? { parts: { theory: parts.theory, practice: parts.practice } } : {}),
  });
}

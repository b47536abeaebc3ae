import type {
  ImpersonalCreateBody,
  StaffParticipantTest,
  StaffParticipantTestListRequest,
  StaffParticipantTestRegisterBody,
  StaffParticipantTestRegisterResult,
  StaffParticipantTestUpdateBody,
} from '@attesta/contract';
import { call, callPath } from '../../../lib/call';
import { quiet, type ListCall, type StaffRole } from './shared';

export const listParticipantTests =
  (role: StaffRole): ListCall<StaffParticipantTest, StaffParticipantTestListRequest> =>
  (request, signal) =>
    call(`POST /api/${role}/participantTest/list`, { body: request }, { ...quiet, signal });

/** `participantTest/save` without an id registers students; its answer is then the register result. */
export const registerParticipants = async (
  role: StaffRole,
  body: StaffParticipantTestRegisterBody,
): Promise<StaffParticipantTestRegisterResult> =>
  (await call(
    `POST /api/${role}/participantTest/save`,
    { body },
    quiet,
  )) as StaffParticipantTestRegisterResult;

/** `participantTest/save` with an id updates one participant test and answers it. */
export const updateParticipantTest = async (
  role: StaffRole,
  body: StaffParticipantTestUpdateBody,
): Promise<StaffParticipantTest> =>
  (await call(`POST /api/${role}/participantTest/save`, { body }, quiet)) as StaffParticipantTest;

/** The code slips of a diagnostic's participants (query `diagnosticId`, `classId`, `format`). */
export const participantCodesPath = (role: StaffRole) =>
  callPath(`GET /api/reports/${role}/participantCodes`);

export const createImpersonal = (body: ImpersonalCreateBody) =>
  call('POST /api/ParticipantTest/participantTestCreateImpersonal', { body }, quiet);

/** The XML file itself is the body (docs/participant-test-import.md), not JSON. */
export const importXml = (xml: string) =>
  call(
    'POST /api/ParticipantTest/participantTestImportFromXml',
    { body: xml },
    { ...quiet, raw: { contentType: 'application/xml' } },
  );

export const createPlanningQueue = (date: string, code: string) =>
  call('POST /api/ParticipantTest/createplanningqueue', { query: { date, code } }, quiet);

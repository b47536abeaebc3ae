// The call contract of Attesta, assembled from its areas: each area's file in `calls/` holds its calls,
// each with its roles, meaning and schemas (docs/how-to-add-a-call.md). The specification's calls
// (rows without `ours`) are kept equal to ../shared/spec/endpoints.tsv by
// server/src/plugins/endpoints.test.ts.
import type { RoleRule } from './roles.js';
import type { CallRow } from './call-schema.js';
// Imported in this order so the API document lists its named schemas as it always has.
import { ADMIN_ORG_CALLS } from './calls/admin-org.js';
import { SIGNED_INTEGRATION_CALLS } from './calls/signed-integration.js';
import { OPEN_TESTS_CALLS } from './calls/open-tests.js';
import { ACCOMMODATIONS_CALLS } from './calls/accommodations.js';
import { SCANS_CALLS } from './calls/scans.js';
import { PARTICIPANT_CALLS } from './calls/participant.js';
import { AREAS_CALLS } from './calls/areas.js';
import { ACCOUNT_CALLS } from './calls/account.js';
import { AUDIT_TRAIL_CALLS } from './calls/audit-trail.js';
import { AUTHORING_CALLS } from './calls/authoring.js';
import { CONTENT_IMPORT_CALLS } from './calls/content-import.js';
import { COORDINATOR_CALLS } from './calls/coordinator.js';
import { CREATE_DIAGNOSTIC_CALLS } from './calls/create-diagnostic.js';
import { EXAM_RESULTS_CALLS } from './calls/exam-results.js';
import { EXAM_TEST_CALLS } from './calls/exam-test.js';
import { EXPERT_CALLS } from './calls/expert.js';
import { FEEDBACK_CALLS } from './calls/feedback.js';
import { FILES_CALLS } from './calls/files.js';
import { HTMLTEXTS_CALLS } from './calls/htmltexts.js';
import { INTEGRATION_CALLS } from './calls/integration.js';
import { KIM_CALLS } from './calls/kim.js';
import { MONITORING_CALLS } from './calls/monitoring.js';
import { NOTIFICATIONS_CALLS } from './calls/notifications.js';
import { PARTICIPANT_TEST_CALLS } from './calls/participant-test.js';
import { PROFILE_CALLS } from './calls/profile.js';
import { REPORTS_CALLS } from './calls/reports.js';
import { ROSTER_CALLS } from './calls/roster.js';
import { SCHOOL_DATA_CALLS } from './calls/school-data.js';
import { UGNIK_CALLS } from './calls/ugnik.js';
import { USER_CALLS } from './calls/user.js';
import { WORKER_CALLS } from './calls/worker.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export interface EndpointContract {
  method: HttpMethod;
  /** Path exactly as the specification writes it, with `{param}` placeholders. */
  path: string;
  roles: RoleRule;
  meaning: string;
  /** A GET that changes state: it needs the anti-CSRF header like any POST. */
  stateChanging?: true;
}

/** A call Attesta adds beyond the specification (not in spec/endpoints.tsv). */
export interface OurEndpointContract extends EndpointContract {
  ours: true;
}

/**
 * Every call with its schemas, under its key `'METHOD /path'`: what the server declares a route from
 * (`contractRoute` in server/src/auth/access.ts) and the web calls through (`call` in web/src/lib/call.ts).
 */
export const CALL_SCHEMAS = {
  ...ACCOMMODATIONS_CALLS,
  ...ACCOUNT_CALLS,
  ...ADMIN_ORG_CALLS,
  ...AREAS_CALLS,
  ...AUDIT_TRAIL_CALLS,
  ...AUTHORING_CALLS,
  ...CONTENT_IMPORT_CALLS,
  ...COORDINATOR_CALLS,
  ...CREATE_DIAGNOSTIC_CALLS,
  ...EXAM_RESULTS_CALLS,
  ...EXAM_TEST_CALLS,
  ...EXPERT_CALLS,
  ...FEEDBACK_CALLS,
  ...FILES_CALLS,
  ...HTMLTEXTS_CALLS,
  ...INTEGRATION_CALLS,
  ...KIM_CALLS,
  ...MONITORING_CALLS,
  ...NOTIFICATIONS_CALLS,
  ...OPEN_TESTS_CALLS,
  ...PARTICIPANT_CALLS,
  ...PARTICIPANT_TEST_CALLS,
  ...PROFILE_CALLS,
  ...REPORTS_CALLS,
  ...ROSTER_CALLS,
  ...SCANS_CALLS,
  ...SCHOOL_DATA_CALLS,
  ...SIGNED_INTEGRATION_CALLS,
  ...UGNIK_CALLS,
  ...USER_CALLS,
  ...WORKER_CALLS,
} as const;

/**
 * Each area's table once: `server/src/plugins/endpoints.test.ts` checks that their rows add up to
 * `CALL_SCHEMAS`, so a key written in two areas (the spread above would keep only one) or an area
 * left out of either list fails.
 */
export const CALL_AREAS: readonly Readonly<Record<string, CallRow>>[] = [
  ACCOMMODATIONS_CALLS,
  ACCOUNT_CALLS,
  ADMIN_ORG_CALLS,
  AREAS_CALLS,
  AUDIT_TRAIL_CALLS,
  AUTHORING_CALLS,
  CONTENT_IMPORT_CALLS,
  COORDINATOR_CALLS,
  CREATE_DIAGNOSTIC_CALLS,
  EXAM_RESULTS_CALLS,
  EXAM_TEST_CALLS,
  EXPERT_CALLS,
  FEEDBACK_CALLS,
  FILES_CALLS,
  HTMLTEXTS_CALLS,
  INTEGRATION_CALLS,
  KIM_CALLS,
  MONITORING_CALLS,
  NOTIFICATIONS_CALLS,
  OPEN_TESTS_CALLS,
  PARTICIPANT_CALLS,
  PARTICIPANT_TEST_CALLS,
  PROFILE_CALLS,
  REPORTS_CALLS,
  ROSTER_CALLS,
  SCANS_CALLS,
  SCHOOL_DATA_CALLS,
  SIGNED_INTEGRATION_CALLS,
  UGNIK_CALLS,
  USER_CALLS,
  WORKER_CALLS,
];

type Table = typeof CALL_SCHEMAS;
/** `METHOD /path` of every call, e.g. `POST /api/Account/login`. */
export type CallKey = keyof Table;
/** `METHOD /path` of every call of the specification (not ours). */
export type EndpointKey = { [K in CallKey]: Table[K] extends { ours: true } ? never : K }[CallKey];
/** A call's row: its roles, meaning and schemas. */
export type CallSchemasOf<K extends CallKey> = Table[K];

const rowsOf = (table: Record<string, CallRow>): (EndpointContract | OurEndpointContract)[] =>
  Object.entries(table).map(([key, row]) => {
    const space = key.indexOf(' ');
    return {
      method: key.slice(0, space) as HttpMethod,
      path: key.slice(space + 1),
      roles: row.roles,
      meaning: row.meaning,
      ...(row.stateChanging ? { stateChanging: true as const } : {}),
      ...(row.ours ? { ours: true as const } : {}),
    };
  });

/** Every call: the specification's and ours. */
export const CALLS: readonly (EndpointContract | OurEndpointContract)[] =
  /* @__PURE__ */ rowsOf(CALL_SCHEMAS);
/** The specification's calls (spec/endpoints.tsv). */
export const ENDPOINTS: readonly EndpointContract[] = /* @__PURE__ */ CALLS.filter((e) => !('ours' in e));
/** Calls beyond the specification that the product needs, marked `ours`. */
export const OUR_ENDPOINTS: readonly OurEndpointContract[] = /* @__PURE__ */ CALLS.filter(
  (e): e is OurEndpointContract => 'ours' in e,
);

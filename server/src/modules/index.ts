import type { FastifyPluginAsync } from 'fastify';
import { resultVerifyRoutes, regradeRoutes, examResultsRoutes } from './exam-results/index.js';
import { coordinatorRoutes } from './coordinator/index.js';
import { organizatorRoutes } from './organizator/index.js';
import { accountRoutes } from './account/index.js';
import { userRoutes } from './user/index.js';
import { examWorkRoutes, examCatalogRoutes, blanksRoutes, proctoringRoutes } from './exam-test/index.js';
import { kimRoutes } from './kim/index.js';
import { filesRoutes } from './files/index.js';
import { htmlTextsRoutes, helpRoutes } from './htmltexts/index.js';
import { feedbackRoutes } from './feedback/index.js';
import { scansRoutes } from './scans/index.js';
import {
  participantTestInfoRoutes,
  participantTestListRoutes,
  participantTestSessionRoutes,
  participantTestImpersonalRoutes,
  participantTestImportRoutes,
  participantTestRestoreRoutes,
  participantTestQueueRoutes,
} from './participant-test/index.js';
import { ugnikRoutes } from './ugnik/index.js';
import { workerRoutes } from './worker/index.js';
import { profileRoutes } from './profile/index.js';
import { createDiagnosticRoutes } from './create-diagnostic/index.js';
import { participantCodesRoutes, itemAnalysisRoutes, reportRoutes } from './reports/index.js';
import { expertRoutes, expertAssignmentRoutes } from './expert/index.js';
import { monitoringRoutes } from './monitoring/index.js';
import { adminOrgRoutes } from './admin-org/index.js';
import { auditTrailRoutes } from './audit-trail/index.js';
import { authoringRoutes } from './authoring/index.js';
import { contentImportRoutes } from './content-import/index.js';
import { rosterRoutes } from './roster/index.js';
import { notificationRoutes } from './notifications/index.js';
import { integrationRoutes } from './integration/index.js';
import { signedIntegrationRoutes } from './signed-integration/index.js';
import { openTestRoutes } from './open-tests/index.js';
import { accommodationRoutes } from './accommodations/index.js';
import { areaRoutes } from './areas/index.js';
import { jobsPlugin } from '../jobs/runner.js';

/** Every API area, each a Fastify plugin in its own folder. Calls not built yet answer 501. */
export const modules: FastifyPluginAsync[] = [
  resultVerifyRoutes,
  regradeRoutes,
  coordinatorRoutes,
  organizatorRoutes,
  accountRoutes,
  userRoutes,
  kimRoutes,
  examWorkRoutes,
  blanksRoutes,
  proctoringRoutes,
  examCatalogRoutes,
  filesRoutes,
  htmlTextsRoutes,
  helpRoutes,
  feedbackRoutes,
  scansRoutes,
  participantTestInfoRoutes,
  participantTestListRoutes,
  participantTestSessionRoutes,
  participantTestImpersonalRoutes,
  participantTestImportRoutes,
  participantTestRestoreRoutes,
  ugnikRoutes,
  workerRoutes,
  profileRoutes,
  participantTestQueueRoutes,
  createDiagnosticRoutes,
  participantCodesRoutes,
  itemAnalysisRoutes,
  reportRoutes,
  examResultsRoutes,
  expertRoutes,
  expertAssignmentRoutes,
  monitoringRoutes,
  adminOrgRoutes,
  areaRoutes,
  auditTrailRoutes,
  authoringRoutes,
  contentImportRoutes,
  rosterRoutes,
  notificationRoutes,
  integrationRoutes,
  signedIntegrationRoutes,
  openTestRoutes,
  accommodationRoutes,
  // The job runner of this instance (queue items): polls on ready, stops on close.
  jobsPlugin,
];

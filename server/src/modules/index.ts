import type { FastifyPluginAsync } from 'fastify';
import { resultVerifyRoutes } from './exam-results/verify.js';
import { regradeRoutes } from './exam-results/regrade.routes.js';
import { coordinatorRoutes } from './coordinator/coordinator.routes.js';
import { organizatorRoutes } from './organizator/organizator.routes.js';
import { accountRoutes } from './account/account.routes.js';
import { userRoutes } from './user/user.routes.js';
import { examWorkRoutes } from './exam-test/work.routes.js';
import { kimRoutes } from './kim/kim.routes.js';
import { examCatalogRoutes } from './exam-test/catalog.routes.js';
import { blanksRoutes } from './exam-test/blanks.routes.js';
import { proctoringRoutes } from './exam-test/proctoring.routes.js';
import { filesRoutes } from './files/files.routes.js';
import { htmlTextsRoutes } from './htmltexts/htmltexts.routes.js';
import { helpRoutes } from './htmltexts/help.routes.js';
import { feedbackRoutes } from './feedback/feedback.routes.js';
import { scansRoutes } from './scans/scans.routes.js';
import { participantTestInfoRoutes } from './participant-test/info.routes.js';
import { participantTestListRoutes } from './participant-test/list.routes.js';
import { participantTestSessionRoutes } from './participant-test/session.routes.js';
import { participantTestImpersonalRoutes } from './participant-test/impersonal.routes.js';
import { participantTestImportRoutes } from './participant-test/import-xml.routes.js';
import { participantTestRestoreRoutes } from './participant-test/restore.routes.js';
import { ugnikRoutes } from './ugnik/ugnik.routes.js';
import { workerRoutes } from './worker/worker.routes.js';
import { profileRoutes } from './profile/profile.routes.js';
import { jobsPlugin } from '../jobs/runner.js';
import { participantTestQueueRoutes } from './participant-test/queue.routes.js';
import { createDiagnosticRoutes } from './create-diagnostic/create-diagnostic.routes.js';
import { participantCodesRoutes } from './reports/participant-codes.routes.js';
import { itemAnalysisRoutes } from './reports/item-analysis/item-analysis.routes.js';
import { reportRoutes } from './reports/reports.routes.js';
import { examResultsRoutes } from './exam-results/exam-results.routes.js';
import { expertRoutes } from './expert/expert.routes.js';
import { expertAssignmentRoutes } from './expert/assignment.routes.js';
import { monitoringRoutes } from './monitoring/monitoring.routes.js';
import { adminOrgRoutes } from './admin-org/admin-org.routes.js';
import { auditTrailRoutes } from './audit-trail/audit-trail.routes.js';
import { authoringRoutes } from './authoring/authoring.routes.js';
import { contentImportRoutes } from './content-import/index.js';
import { rosterRoutes } from './roster/roster.routes.js';
import { notificationRoutes } from './notifications/notifications.routes.js';
import { integrationRoutes } from './integration/integration.routes.js';
import { signedIntegrationRoutes } from './signed-integration/signed-integration.routes.js';
import { openTestRoutes } from './open-tests/open-tests.routes.js';
import { accommodationRoutes } from './accommodations/accommodations.routes.js';
import { areaRoutes } from './areas/areas.routes.js';

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

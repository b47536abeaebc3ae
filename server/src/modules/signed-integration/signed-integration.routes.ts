import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_HEADER } from '@attesta/contract';
import { authOf, contractRoute, type ScopeRule, type SignedAccess } from '../../auth/access.js';
import { registerJobHandler } from '../../jobs/runner.js';
import { notFound, unauthorized } from '../../lib/errors.js';
import { keyScope, ooOf } from '../integration/index.js';
import { endSession, proctoringConfigOf, startSession } from './proctoring-webhooks.service.js';
import { presentsSignature, verifySignedRequest, type SignedScope } from './signature.js';
import {
  diagnosticWithinOo,
  queuePush,
  UPSTREAM_PUSH_JOB,
  upstreamPushJob,
} from './upstream-push.service.js';
import { receivePush, receiveSecretOf } from './upstream-receive.service.js';

const tags = ['integration'];

const SIGNED =
  'Authenticated by signature, not by a session or API key: `X-Timestamp` (Unix seconds), `X-Nonce` ' +
  '(16–128 of A–Z a–z 0–9 _ -) and `X-Signature` (hex HMAC-SHA256 of `timestamp \\n nonce \\n raw body`). ' +
  '401 `bad_signature` for a missing or wrong signature, 401 `stale_request` for a timestamp more than ' +
  '5 minutes off, 409 `replayed_request` for a nonce seen before (docs/integrations.md). ';

/** The signature replaces session, role and scope rules; a request without one is refused. */
function signedBy(scope: SignedScope, secretOf: () => string): SignedAccess {
  return {
    presented: presentsSignature,
    grants: async (req) => {
      await verifySignedRequest(req.server.ctx.db, scope, secretOf(), req);
      return true;
    },
  };
}

/** A session or API key of the role is no substitute for the signature. */
const signatureRequired: ScopeRule = () => {
  throw unauthorized('This call must be signed (X-Signature, X-Timestamp, X-Nonce)', 'bad_signature');
};

const pushKey = keyScope('push');

/**
 * Who may push a diagnostic's results upstream: an admin, or an API key of the `push` scope; a key
 * limited to an ОО only a diagnostic wholly of that ОО (every school and registration), since the
 * push sends the whole diagnostic. 404 for an unknown diagnostic, whoever asks.
 */
const pushScope: ScopeRule = async (req, auth) => {
  if (!(await pushKey(req, auth))) return false;
  const ooId = ooOf(req);
  if (ooId === null) return true;
  const within = await diagnosticWithinOo(req.server.ctx.db, (req.params as { id: number }).id, ooId);
  if (within === null) throw notFound('No such diagnostic');
  return within;
};

/**
 * The proctoring service's webhooks, the upstream push and its receiving side
 * (docs/integrations.md). The JSON body's raw bytes are kept for the signature check.
 */
export const signedIntegrationRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  registerJobHandler(UPSTREAM_PUSH_JOB, upstreamPushJob(ctx));

  // In this plugin's scope only: JSON parsed as usual, its bytes kept for verifySignedRequest.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req: FastifyRequest, body, done) => {
    req.rawBody = body as Buffer;
    parseJson(req, (body as Buffer).toString('utf8'), done);
  });

  const proctoring = signedBy('proctoring', () => proctoringConfigOf(ctx).secret);
  app.route({
    ...contractRoute(
      'POST /api/integration/proctoredu/start_session',
      {
        summary: 'Proctoring webhook: a session started for an exam work',
        description:
          `${SIGNED}Signed with PROCTORING_SECRET (404 \`not_configured\` without it). The token Attesta issued ` +
          'for the sitting names the work (404 when it has none); the session id is recorded against it, once.',
        tags,
        errors: [400, 401, 404, 409],
      },
      signatureRequired,
      { signed: proctoring },
    ),
    handler: (req) => startSession(ctx, req.body),
  });

  app.route({
    ...contractRoute(
      'POST /api/integration/proctoredu/endsessiondata',
      {
        summary: 'Proctoring webhook: a session ended, with its verdict',
        description:
          `${SIGNED}Signed with PROCTORING_SECRET. The verdict (score, comment) is left on the work of the ` +
          'session (the control report and the live room show it); the same end twice changes nothing ' +
          '(`changed: false`), another verdict for an ended session is 409 `conflict`. An unknown session ' +
          'needs `token` (404 otherwise).',
        tags,
        errors: [400, 401, 404, 409],
      },
      signatureRequired,
      { signed: proctoring },
    ),
    handler: (req) => endSession(ctx, req.body),
  });

  const push = contractRoute(
    'GET /api/integration/importResultToAttesta/{id}',
    {
      summary: "Push a diagnostic's published results to the upstream Attesta",
      description:
        'An admin, or an API key of the `push` scope (403 otherwise); a key limited to an ОО only a ' +
        'diagnostic whose every school and registration is of that ОО (403). Answers 202 with the ' +
        '`upstream_push` queue item that POSTs the results (attesta export layout) to ' +
        'UPSTREAM_ATTESTA_URL, signed with UPSTREAM_ATTESTA_SECRET and carrying an `Idempotency-Key` per ' +
        'diagnostic and content; a failing upstream is retried with backoff (5 attempts). 409 ' +
        '`not_configured` without an upstream, 409 `results_not_published` when the diagnostic has no ' +
        'published results, 404 for an unknown diagnostic. The request and each attempt are audited.',
      tags,
      errors: [400, 401, 403, 404, 409],
    },
    pushScope,
  );
  app.route({
    ...push,
    handler: async (req, reply) =>
      reply
        .code(202)
        .send(
          await queuePush(ctx, { auth: authOf(req), ip: req.ip ?? null, ooId: ooOf(req) }, req.params.id),
        ),
  });

  app.route({
    ...contractRoute(
      'POST /api/integration/attesta/results',
      {
        summary: 'Receive the published results of a diagnostic pushed by another Attesta',
        description:
          `${SIGNED}Signed with ATTESTA_RECEIVE_SECRET (404 \`not_configured\` without it). Needs an ` +
          '`Idempotency-Key` header (400): the first push of a key stores its results, a second answers ' +
          'the first answer and stores nothing; the same key with other results is 409 `conflict`.',
        tags,
        errors: [400, 401, 404, 409],
      },
      signatureRequired,
      { signed: signedBy('attesta', () => receiveSecretOf(ctx)) },
    ),
    handler: (req) => {
      const key = req.headers[IDEMPOTENCY_HEADER];
      return receivePush(ctx, typeof key === 'string' ? key : undefined, req.body, req.ip ?? null);
    },
  });
};

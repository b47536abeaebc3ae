import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { TECH_REQUIREMENTS } from '@attesta/contract';
import { authOf, contractRoute } from '../../auth/access.js';
import { checkTechSpec, probeBytes } from './tech-spec.js';
import * as service from './user.service.js';

const tags = ['user'];

/** Documented error answers: the one error body under each status the call can give. */

/** `/api/user/*` and `POST /api/User`: the current user, the admin's user management, the device check. */
export const userRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('GET /api/user', {
      summary: 'Current user (roles, school, display name) — the same object as in the login answer',
      tags,
      errors: [401],
    }),
    handler: (req) => service.currentUser(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute(
      'GET /api/user/hasSession',
      {
        summary: 'Whether the request carries a live session (cookie or bearer); never 401',
        tags,
        // Only what any call answers to a malformed query (invalid_text).
        errors: [400],
      },
      undefined,
      { passive: true },
    ),
    handler: async (req) => req.auth !== null && req.auth.via !== 'api_key',
  });

  app.route({
    ...contractRoute(
      'GET /api/user/sessionTime',
      {
        summary: 'When the session ends unless used: an ISO instant as a JSON string',
        tags,
        errors: [401],
      },
      undefined,
      { passive: true },
    ),
    // A bare string would go out as text/plain; the client expects a JSON string.
    handler: async (req, reply) =>
      reply.type('application/json; charset=utf-8').send(JSON.stringify(authOf(req).expiresAt.toISOString())),
  });

  app.route({
    ...contractRoute('GET /api/user/roles', {
      summary: 'All roles',
      tags,
      errors: [401, 403],
    }),
    handler: () => service.listRoles(ctx.db),
  });

  app.route({
    ...contractRoute('GET /api/user/checkTechSpec', {
      summary: 'Device and browser check against the technical requirements',
      description:
        'The browser sends what it measured (screenWidth, screenHeight, cookies, localStorage, indexedDb, ' +
        'clientTime and, after a probe, downloadMs + bytes); the user agent is read from the header. ' +
        'Each check has `ok` (false blocks testing on this device) and `warning` (acceptable, tell the user). ' +
        '**Bandwidth probe:** with `probe=1` the answer is instead `application/octet-stream` of `bytes` random ' +
        `bytes (default ${TECH_REQUIREMENTS.probe.defaultBytes}, max ${TECH_REQUIREMENTS.probe.maxBytes}, ` +
        '`Cache-Control: no-store`); time its download and call again with `downloadMs` and `bytes`.',
      tags,
      errors: [400],
    }),
    handler: async (req, reply) => {
      reply.header('cache-control', 'no-store');
      if (req.query.probe) {
        // Fastify sends a Buffer as-is (no serializer), so the JSON schema above does not apply to it.
        const bytes: unknown = probeBytes(req.query.bytes);
        return reply.type('application/octet-stream').send(bytes as never);
      }
      return checkTechSpec(req.headers['user-agent'] ?? '', req.query, new Date());
    },
  });

  app.route({
    ...contractRoute('GET /api/user/{id}', {
      summary: 'One user with roles, school, blocked and e-mail state',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.getUser(ctx, req.params.id),
  });

  app.route({
    ...contractRoute('POST /api/user/list', {
      summary: 'Page of users',
      description:
        'Filter: `search` (login, e-mail, surname, name), `role`, `schoolId`, `blocked`. ' +
        'Sort fields: `id`, `login`, `surname`, `createdAt`.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listUsers(ctx, req.body),
  });

  app.route({
    ...contractRoute('POST /api/User', {
      summary: 'Create (no id) or update (id) a user; query `pwd` sets the password',
      description:
        'On update an omitted field keeps its value and null clears it. Blocking a user or setting ' +
        'a password ends their sessions; other changes reach their live sessions at once. ' +
        '409 `login_taken` / `email_taken` (case-insensitive), `self_lockout` when an admin would ' +
        'block themselves or drop their own admin role.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.saveUser(ctx, actorOf(req), req.body, req.query.pwd || undefined),
  });

  app.route({
    ...contractRoute('POST /api/user/{id}/changepassword', {
      summary: "Set another user's password; their sessions end",
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: async (req) => {
      await service.setPassword(ctx, actorOf(req), req.params.id, req.body.password);
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute('PUT /api/user/save', {
      summary: 'Update own profile: surname, name, patronymic, e-mail (a new e-mail must be confirmed again)',
      tags,
      errors: [400, 401, 403, 409],
    }),
    handler: (req) => service.saveProfile(ctx, actorOf(req), req.body),
  });

  app.route({
    // A participant session is bound to one participant test; without one there is no card to fill.
    ...contractRoute(
      'PUT /api/user/saveParticipant',
      {
        summary: 'Participant completes own card (names, birth date, class) before starting',
        description:
          'Writes to the student of the participant test bound to the session; an impersonal test gets a ' +
          'new student of its school. 409 `card_locked` once the work has started.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      (_req, auth) => auth.participantTestId !== null,
    ),
    handler: (req) => {
      const actor = actorOf(req);
      return service.saveParticipantCard(ctx, actor, actor.auth.participantTestId!, req.body);
    },
  });
};

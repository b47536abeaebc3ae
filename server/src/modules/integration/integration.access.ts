import type { FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '@attesta/contract';
import type { ScopeRule } from '../../auth/access.js';
import type { AuthContext } from '../../auth/types.js';
import { keyOfSession } from './api-keys.service.js';

/*
 * Who may make an integration data call (docs/integrations.md): an admin always, for every ОО; an
 * integration caller only with an API key whose scopes hold the call's group, limited to the key's
 * ОО if it has one. Anything else (another call group, a session of the integration role without a
 * key) is 403. A revoked key never gets here: the session store does not resolve it (401).
 */

const keyOoOf = new WeakMap<FastifyRequest, number | null>();

export const keyScope =
  (group: ApiKeyScope): ScopeRule =>
  async (req: FastifyRequest, auth: AuthContext) => {
    if (auth.roles.includes('admin')) {
      keyOoOf.set(req, null);
      return true;
    }
    if (auth.via !== 'api_key') return false;
    const key = await keyOfSession(req.server.ctx.db, auth.sessionId);
    if (!key || !key.scopes.includes(group)) return false;
    keyOoOf.set(req, key.ooId);
    return true;
  };

/** The ОО the request's key is limited to (null: every ОО), as its scope rule found it. */
export const ooOf = (req: FastifyRequest): number | null => keyOoOf.get(req) ?? null;

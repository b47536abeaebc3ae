import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema/index.js';
import { sha256 } from '../../lib/tokens.js';
import { createTestApp, createUser, type TestApp } from '../../../test/helpers.js';

const CLIENT_ID = 'attesta-test';

/**
 * A tiny OpenID provider on 127.0.0.1: discovery, JWKS, a token endpoint that checks PKCE and the
 * redirect URI and signs RS256 id_tokens, and userinfo. The test plays the user at /authorize by
 * calling `approve`, which returns the code the provider would send back.
 */
class FakeProvider {
  issuer = '';
  private server: Server = createServer((req, res) => void this.handle(req, res));
  private keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private codes = new Map<
    string,
    { sub: string; claims: object; nonce: string; challenge: string; redirectUri: string }
  >();
  readonly accessTokens = new Map<string, object>();

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/realm`;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The user approves the authorization request at `location`: returns the callback's code and state. */
  approve(location: string, sub: string, claims: object = {}) {
    const url = new URL(location);
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, {
      sub,
      claims,
      nonce: url.searchParams.get('nonce')!,
      challenge: url.searchParams.get('code_challenge')!,
      redirectUri: url.searchParams.get('redirect_uri')!,
    });
    return { code, state: url.searchParams.get('state')! };
  }

  private idToken(payload: object): string {
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const body = `${enc({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${enc(payload)}`;
    return `${body}.${sign('sha256', Buffer.from(body), this.keys.privateKey).toString('base64url')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url!, this.issuer);
    const json = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    let raw = '';
    for await (const chunk of req) raw += chunk;
    switch (url.pathname) {
      case '/realm/.well-known/openid-configuration':
        return json(200, {
          issuer: this.issuer,
          authorization_endpoint: `${this.issuer}/authorize`,
          token_endpoint: `${this.issuer}/token`,
          userinfo_endpoint: `${this.issuer}/userinfo`,
          jwks_uri: `${this.issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
        });
      case '/realm/jwks':
        return json(200, {
          keys: [{ ...this.keys.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }],
        });
      case '/realm/token': {
        const form = new URLSearchParams(raw);
        const grant = this.codes.get(form.get('code') ?? '');
        this.codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri')) {
          return json(400, { error: 'invalid_grant' });
        }
        const now = Math.floor(Date.now() / 1000);
        const accessToken = randomBytes(16).toString('hex');
        this.accessTokens.set(accessToken, { sub: grant.sub, ...grant.claims });
        return json(200, {
          access_token: accessToken,
          token_type: 'Bearer',
          expires_in: 300,
          id_token: this.idToken({
            iss: this.issuer,
            aud: CLIENT_ID,
            sub: grant.sub,
            nonce: grant.nonce,
            iat: now,
            exp: now + 300,
            ...grant.claims,
          }),
        });
      }
      case '/realm/userinfo': {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const info = token && this.accessTokens.get(token);
        return info ? json(200, info) : json(401, { error: 'invalid_token' });
      }
      default:
        return json(404, { error: 'not_found' });
    }
  }
}

let provider: FakeProvider;
let t: TestApp;
beforeAll(async () => {
  provider = new FakeProvider();
  await provider.start();
  t = await createTestApp({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: 'client-secret',
    OIDC_PROVIDER_NAME: 'school-id',
  });
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

/** Starts the flow: the redirect to the provider and the signed state cookie. */
async function start() {
  const res = await get('/api/Account/ExternalLogin?provider=school-id');
  expect(res.statusCode).toBe(302);
  const cookie = res.cookies.find((c) => c.name === 'attesta_oidc')!;
  return { location: res.headers.location as string, cookie: `attesta_oidc=${cookie.value}`, raw: cookie };
}

describe('GET /api/Account/ExternalLogin', () => {
  it('redirects to the provider with state, nonce and a PKCE challenge kept in a signed cookie', async () => {
    const { location, raw } = await start();
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/authorize`);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['state', 'nonce', 'code_challenge', 'redirect_uri'])
      expect(url.searchParams.get(p)).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost/api/Account/ExternalLogin');
    expect(raw).toMatchObject({ httpOnly: true, sameSite: 'Lax', maxAge: 600 });
    expect(raw.value).not.toContain(url.searchParams.get('code_challenge')!); // the verifier, not the challenge
  });

  it('finishes the code flow: creates the user, opens an external session, redirects home', async () => {
    const { location, cookie } = await start();
    const sub = `sub-${Date.now()}`;
    const { code, state } = provider.approve(location, sub, {
      email: `${sub}@school.example`,
      email_verified: true,
      given_name: 'Ольга',
      family_name: 'Орлова',
    });
    const res = await get(
      `/api/Account/ExternalLogin?provider=school-id&code=${code}&state=${state}`,
      cookie,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    const sid = res.cookies.find((c) => c.name === 'attesta_sid')!;
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const [session] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(sid.value)));
    expect(session!.kind).toBe('external');
    const [user] = await t.app.ctx.db.select().from(users).where(eq(users.id, session!.userId));
    expect(user).toMatchObject({
      externalProvider: 'school-id',
      externalSubject: sub,
      email: `${sub}@school.example`,
      surname: 'Орлова',
      passwordHash: null,
    });
    // The second login of the same identity reuses the user.
    const again = await start();
    const second = provider.approve(again.location, sub, {});
    const res2 = await get(
      `/api/Account/ExternalLogin?provider=school-id&code=${second.code}&state=${second.state}`,
      again.cookie,
    );
    const sid2 = res2.cookies.find((c) => c.name === 'attesta_sid')!;
    const [session2] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(sid2.value)));
    expect(session2!.userId).toBe(user!.id);
  });

  it('links an existing account only by a verified e-mail', async () => {
    const existing = await createUser(t.app, { roles: ['coordinator'] });
    const email = `${existing.login}@example.test`;
    const unverified = await start();
    const a = provider.approve(unverified.location, `u-${Date.now()}`, { email, email_verified: false });
    const resA = await get(`/api/Account/ExternalLogin?code=${a.code}&state=${a.state}`, unverified.cookie);
    const sidA = resA.cookies.find((c) => c.name === 'attesta_sid')!;
    const [sessionA] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(sidA.value)));
    expect(sessionA!.userId).not.toBe(existing.id);

    const verified = await start();
    const b = provider.approve(verified.location, `v-${Date.now()}`, { email, email_verified: true });
    const resB = await get(`/api/Account/ExternalLogin?code=${b.code}&state=${b.state}`, verified.cookie);
    const sidB = resB.cookies.find((c) => c.name === 'attesta_sid')!;
    const [sessionB] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(sidB.value)));
    expect(sessionB!.userId).toBe(existing.id);
  });

  it('sends the browser to the login page on a provider error, a wrong state or a lost cookie', async () => {
    const denied = await get('/api/Account/ExternalLogin?provider=school-id&error=access_denied');
    expect(denied.headers.location).toBe('/login?error=access_denied');

    const { location, cookie } = await start();
    const { code } = provider.approve(location, 'someone');
    const wrongState = await get(`/api/Account/ExternalLogin?code=${code}&state=forged`, cookie);
    expect(wrongState.statusCode).toBe(302);
    expect(wrongState.headers.location).toBe('/login?error=external_login_failed');
    expect(wrongState.cookies.find((c) => c.name === 'attesta_sid' && c.value)).toBeUndefined();

    const noCookie = await get(`/api/Account/ExternalLogin?code=${code}&state=x`);
    expect(noCookie.headers.location).toBe('/login?error=external_login_expired');
    const forged = await get(`/api/Account/ExternalLogin?code=${code}&state=x`, 'attesta_oidc={"state":"x"}');
    expect(forged.headers.location).toBe('/login?error=external_login_expired');
  });

  it('answers 400 unknown_provider for another provider name', async () => {
    const res = await get('/api/Account/ExternalLogin?provider=facebook');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unknown_provider' });
  });
});

describe('GET /api/Account/ObtainLocalAccessToken', () => {
  const url = (q: Record<string, string>) => `/api/Account/ObtainLocalAccessToken?${new URLSearchParams(q)}`;

  it('exchanges a valid provider token for a local session (no cookie)', async () => {
    const sub = `app-${Date.now()}`;
    provider.accessTokens.set('good-token', { sub, email: `${sub}@x.test`, email_verified: true });
    const res = await t.app.inject({
      method: 'GET',
      url: url({ provider: 'school-id', providerKey: sub, externalAccessToken: 'good-token' }),
      headers: { 'user-agent': 'AttestaApp/1.2' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ login: `school-id-${sub}`, roles: ['guest'] });
    expect(res.cookies).toEqual([]);
    const [session] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(body.token)));
    expect(session).toMatchObject({ kind: 'external', appShell: true });
  });

  it('refuses a token of another subject and an unknown token', async () => {
    provider.accessTokens.set('their-token', { sub: 'them' });
    for (const q of [
      { provider: 'school-id', providerKey: 'me', externalAccessToken: 'their-token' },
      { provider: 'school-id', providerKey: 'me', externalAccessToken: 'nonsense' },
    ]) {
      const res = await get(url(q));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'invalid_external_token' });
    }
  });

  it('refuses missing parameters and an unknown provider', async () => {
    expect((await get(url({ provider: 'school-id', providerKey: 'me' }))).statusCode).toBe(400);
    const unknown = await get(url({ provider: 'vk', providerKey: 'me', externalAccessToken: 'x' }));
    expect(unknown.json()).toMatchObject({ status: 400, code: 'unknown_provider' });
  });
});

describe('a provider that cannot be reached', () => {
  it('answers 503 service_unavailable instead of blaming the caller', async () => {
    const down = await createTestApp({ OIDC_ISSUER: 'http://127.0.0.1:9/realm', OIDC_CLIENT_ID: CLIENT_ID });
    try {
      const start = await down.app.inject({ method: 'GET', url: '/api/Account/ExternalLogin' });
      expect(start.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
      const exchange = await down.app.inject({
        method: 'GET',
        url: '/api/Account/ObtainLocalAccessToken?provider=oidc&providerKey=a&externalAccessToken=b',
      });
      expect(exchange.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
    } finally {
      await down.close();
    }
  });
});

import * as client from 'openid-client';
import type { Config } from '../../config.js';

export type OidcSettings = NonNullable<Config['oidc']>;

/** What Attesta keeps of an external identity. */
export interface ExternalIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  surname: string | null;
  name: string | null;
}

/** What the browser carries between the redirect to the provider and its callback. */
export interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
}

type Claims = Record<string, unknown>;

/** The provider's discovery document could not be fetched or is invalid. */
export class ProviderUnavailableError extends Error {
  constructor(reason: string) {
    super(`OIDC discovery failed: ${reason}`);
    this.name = 'ProviderUnavailableError';
  }
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null);

function identityOf(claims: Claims): ExternalIdentity {
  const subject = text(claims.sub);
  if (!subject) throw new Error('the provider sent no subject');
  return {
    subject,
    email: text(claims.email)?.toLowerCase() ?? null,
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    surname: text(claims.family_name),
    name: text(claims.given_name) ?? (claims.family_name ? null : text(claims.name)),
  };
}

/**
 * A generic OpenID Connect relying party (authorization code + PKCE, and userinfo for the app
 * shell's provider tokens). Discovery is lazy and cached, so a provider that is down at start
 * does not stop the server; a failed discovery is retried on the next call.
 */
export class OidcClient {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(
    readonly settings: OidcSettings,
    private readonly allowHttp: boolean,
  ) {}

  get provider(): string {
    return this.settings.provider;
  }

  private discover(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        this.settings.clientSecret,
        undefined,
        // Plain http only outside production (a local test provider).
        this.allowHttp ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        this.configuration = null;
        throw new ProviderUnavailableError((err as Error).message);
      });
    return this.configuration;
  }

  /** The provider's authorization URL and the secrets to keep until its callback. */
  async start(redirectUri: string): Promise<{ url: string; pending: PendingLogin }> {
    const config = await this.discover();
    const pending: PendingLogin = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /** Exchanges the callback's code (checking state, nonce, PKCE and the id_token) for an identity. */
  async finish(callbackUrl: URL, pending: PendingLogin): Promise<ExternalIdentity> {
    const config = await this.discover();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      pkceCodeVerifier: pending.verifier,
      idTokenExpected: true,
    });
    const claims = (tokens.claims() ?? {}) as Claims;
    // Many providers put the e-mail only in userinfo.
    if (!claims.email && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(config, tokens.access_token, String(claims.sub));
      return identityOf({ ...info, ...claims, email: info.email, email_verified: info.email_verified });
    }
    return identityOf(claims);
  }

  /** Validates a provider access token at its userinfo endpoint; the subject must be `expectedSubject`. */
  async userInfo(accessToken: string, expectedSubject: string): Promise<ExternalIdentity> {
    const config = await this.discover();
    const info = await client.fetchUserInfo(config, accessToken, expectedSubject);
    return identityOf(info as Claims);
  }
}

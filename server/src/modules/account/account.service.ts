import { displayDate, schoolDay } from '../../lib/calendar.js';
import type { FastifyBaseLogger } from 'fastify';
import type { CurrentUser, Role } from '@attesta/contract';
import type { NewSession } from '../../auth/session-store.js';
import { reserveCodeAttempt } from '../../auth/proof-of-work.js';
import { addressKey, type ThrottleKeys } from '../../auth/throttle.js';
import type { AuthContext } from '../../auth/types.js';
import { toCurrentUser } from '../../auth/presenter.js';
import type { AppContext } from '../../context.js';
import { audit } from '../../lib/audit.js';
import { AppError, badRequest, forbidden, unauthorized } from '../../lib/errors.js';
import type { MailMessage } from '../../lib/mailer.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import { normalizeActivationCode } from '../../lib/tokens.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { Memo } from '../../lib/memo.js';
import { primeStart } from '../../lib/start-prime.js';
import * as repo from './account.repo.js';
import {
  ProviderUnavailableError,
  type ExternalIdentity,
  type OidcClient,
  type PendingLogin,
} from './oidc.js';

/** What the service needs to know about the HTTP request (never the request itself). */
export interface Caller {
  ip: string;
  userAgent: string | null;
  /** Where e-mailed links point: PUBLIC_URL, or the request's own origin. */
  origin: string;
}

export interface OpenedSession {
  user: CurrentUser;
  token: string;
  expiresAt: Date;
  userId: number;
}

const HOUR = 3_600_000;
const CONFIRM_TTL_MS = 48 * HOUR;
const RESET_TTL_MS = 2 * HOUR;
const APP_SHELL_MARKER = 'AttestaApp/';

const invalidCredentials = () => unauthorized('Wrong login or password', 'invalid_credentials');
const invalidToken = () =>
  badRequest('invalid_token', 'This link is invalid or has expired; request a new one');

/** Today's school calendar day (test dates are Moscow calendar dates). */
const today = () => schoolDay();

/** Only same-site relative paths: `/x` but never `//host`, `/\host` or an absolute URL. */
export function safeReturnUrl(value: string | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return null;
  try {
    const base = 'http://attesta.invalid';
    return new URL(value, base).origin === base ? value : null;
  } catch {
    return null;
  }
}

/**
 * The user behind a participant test: one per student (or worker) across all their tests, or one
 * per impersonal participant test. Created on first use (repo.codeLogin), never with a password.
 */
function participantLogin(target: repo.CodeTarget) {
  if (target.studentId !== null && !target.isImpersonal)
    return { login: `student-${target.studentId}`, studentId: target.studentId, workerId: null };
  if (target.workerId !== null && !target.isImpersonal)
    return { login: `worker-${target.workerId}`, studentId: null, workerId: target.workerId };
  return { login: `participant-${target.id}`, studentId: null, workerId: null };
}

/** School names shown at sign-in change rarely: a minute of memory spares each login a query. */
const schoolNames = new Memo<number, string | null>(60_000);

/** Rules of the account area: sign-in, registration, passwords, ending sessions. */
export class AccountService {
  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    readonly oidc: OidcClient | null,
  ) {}

  private get db() {
    return this.ctx.db;
  }

  // ---- sessions -------------------------------------------------------------------------------

  /** Opens a session and answers it in the shape of the login answer. */
  async openSession(
    userId: number,
    kind: NewSession['kind'],
    caller: Caller,
    bound: { participantTestId?: number; activationCode?: string } = {},
    known?: { user: repo.SessionUser; roles: Role[] },
  ): Promise<OpenedSession> {
    const created = await this.ctx.sessions.create(
      { userId, kind, ...bound, ...this.sessionCaller(caller) },
      known,
    );
    return this.sessionOpened(created, userId);
  }

  /** What a session keeps of the caller who opened it. */
  private sessionCaller(caller: Caller) {
    return {
      appShell: caller.userAgent?.includes(APP_SHELL_MARKER) ?? false,
      userAgent: caller.userAgent,
      ip: caller.ip,
    };
  }

  /** A written session in the shape of the login answer. */
  private async sessionOpened(
    created: { token: string; auth: AuthContext | null },
    userId: number,
  ): Promise<OpenedSession> {
    // What later requests will see: primed from what the login just read, or resolved afresh.
    const auth = created.auth ?? (await this.ctx.sessions.resolve(created.token, 'cookie'));
    if (!auth) throw new Error('a just-created session did not resolve');
    const { token } = created;
    const schoolName =
      auth.schoolId === null
        ? null
        : await schoolNames.get(this.db, auth.schoolId, () => repo.schoolNameOf(this.db, auth.schoolId));
    return { user: toCurrentUser(auth, { schoolName }), token, expiresAt: auth.expiresAt, userId };
  }

  async logOff(auth: AuthContext): Promise<void> {
    await this.ctx.sessions.revoke(auth.sessionId, 'logoff');
  }

  // ---- password login -------------------------------------------------------------------------

  /**
   * Login + password. An unknown login and a wrong password answer alike (and take as long);
   * only a caller who knows the password learns that the account is blocked or unconfirmed.
   * Each attempt takes its points before the password is checked: per (login, address), per
   * address, and the account's progressive delay (wrong passwords from anywhere make the next
   * attempt wait 1 s, 2 s, … at most 60 s — never a lock anyone could trigger). `deviceUserId` is
   * the user of a valid device cookie: such a device skips the delay, so an attacker elsewhere
   * cannot keep the real user out at all, and it is neither counted nor refused by the per-address
   * limit, so a spray from a shared address (a school behind one NAT) does not lock out the
   * people who signed in there before. Its guesses stay limited per (login, address).
   */
  async loginWithPassword(
    body: { login: string; password: string },
    caller: Caller,
    deviceUserId: number | null,
  ): Promise<OpenedSession> {
    const user = await repo.findUserByLogin(this.db, body.login);
    const login = body.login.toLowerCase();
    const ip = addressKey(caller.ip);
    const knownDevice = !!user && deviceUserId === user.id;
    const reservation = await this.ctx.throttle.reserve({
      loginPair: `${login}|${ip}`,
      ...(knownDevice ? {} : { loginIp: ip, loginAccount: login }),
    });

    const ok = await verifyPassword(body.password, user?.passwordHash ?? null);
    if (!user || !ok) {
      await this.auditLogin('login_failed', user?.id, caller, { login: body.login.slice(0, 100) });
      throw invalidCredentials();
    }
    // The pair and the account's delay start afresh; the per-address point only goes back: one
    // valid account must not reset a spray across others.
    await reservation.clear('loginPair');

    const roles = await repo.rolesOf(this.db, user.id);
    await this.refuseUnusable(user, roles, caller);
    await this.auditLogin('login', user.id, caller, { method: 'password' });
    return this.openSession(user.id, 'password', caller, {}, { user, roles });
  }

  private async refuseUnusable(user: repo.UserRow, roles: Role[], caller: Caller): Promise<void> {
    if (user.isBlocked) {
      await this.auditLogin('login_refused', user.id, caller, { reason: 'blocked' });
      throw forbidden('This account is blocked; contact your administrator', 'account_blocked');
    }
    if (!user.emailConfirmedAt && roles.includes('guest')) {
      await this.auditLogin('login_refused', user.id, caller, { reason: 'email_not_confirmed' });
      throw forbidden(
        'Confirm your e-mail address first: follow the link in the message we sent you',
        'email_not_confirmed',
      );
    }
  }

  private async auditLogin(
    action: string,
    userId: number | null | undefined,
    caller: Caller,
    details: Record<string, unknown>,
  ): Promise<void> {
    await audit(this.db, {
      userId,
      action,
      entity: 'user',
      entityId: userId ?? undefined,
      details,
      ip: caller.ip,
    });
  }

  // ---- activation code login ------------------------------------------------------------------

  /**
   * A participant signs in with the activation code of their participant test. The attempt's
   * points are taken before the lookup (reserveCodeAttempt: free budgets, then a proof of work);
   * a code that exists gives them back without waiting for the store.
   */
  async loginWithCode(typed: string, caller: Caller, proof?: string): Promise<OpenedSession> {
    const code = normalizeActivationCode(typed);
    const reservation = await reserveCodeAttempt(this.ctx, code, caller.ip, proof);

    // Only a wrong code may cost the address its points: a lookup that fails for the server's
    // sake (an overloaded database at 10:00) gives them back, or an overload would become a
    // proof-of-work wall for every school behind one address.
    const target = await repo.findByActivationCode(this.db, code).catch(async (err: unknown) => {
      await reservation.release().catch(() => undefined);
      throw err;
    });
    if (!target) {
      // A prefix is enough to investigate; the whole code is a credential.
      await this.auditLogin('login_failed', null, caller, { method: 'code', codePrefix: code.slice(0, 3) });
      throw unauthorized('There is no test with this activation code', 'invalid_activation_code');
    }
    // Not awaited: the 10:00 start storm must not wait a store round trip for it.
    void reservation.release();
    if (target.status === 'annulled') {
      throw forbidden('This participant test has been annulled', 'participant_test_annulled');
    }
    if (target.testDate > today()) {
      throw forbidden(
        `This activation code is valid from ${displayDate(target.testDate)}`,
        'activation_code_not_active',
      );
    }

    // The session is written by the login's own statement (one round trip less at 10:00).
    const session = this.ctx.sessions.draft('activation_code', {
      participantTestId: target.id,
      activationCode: code,
      ...this.sessionCaller(caller),
    });
    const input: repo.CodeLoginInput = {
      participantTestId: target.id,
      ...participantLogin(target),
      person: target.person,
      schoolId: target.schoolId,
      ip: caller.ip,
      session: session.row,
    };
    // Null: a concurrent first login of the same person created the user; the second try finds it.
    const known = (await repo.codeLogin(this.db, input)) ?? (await repo.codeLogin(this.db, input));
    if (!known) throw new Error(`participant user ${input.login} could not be created`);
    if (known.user.isBlocked)
      throw forbidden('This account is blocked; contact your administrator', 'account_blocked');
    // The start that follows decides on what this login read (lib/start-prime.ts).
    if (target.start) primeStart(this.db, target.start);
    return this.sessionOpened(await this.ctx.sessions.created(session, known.user.id, known), known.user.id);
  }

  // ---- passwords ------------------------------------------------------------------------------

  async changePassword(
    auth: AuthContext,
    body: { oldPassword: string; newPassword: string },
    caller: Caller,
  ): Promise<void> {
    const user = await repo.findUserById(this.db, auth.userId);
    if (!user?.passwordHash) {
      throw forbidden('This account signs in without a password', 'password_not_set');
    }
    // A stolen session must not become a free password-guessing oracle. Its own counter, per
    // user: the owner's typos here never count against their sign-in.
    const reservation = await this.ctx.throttle.reserve({ changePassword: String(user.id) });
    if (!(await verifyPassword(body.oldPassword, user.passwordHash))) {
      throw badRequest('wrong_password', 'The current password is wrong', [
        { path: 'body.oldPassword', message: 'wrong password' },
      ]);
    }
    await reservation.clear('changePassword');
    if (body.oldPassword === body.newPassword) {
      throw badRequest('password_unchanged', 'The new password must differ from the current one', [
        { path: 'body.newPassword', message: 'same as the current password' },
      ]);
    }
    const passwordHash = await hashPassword(body.newPassword);
    await this.db.transaction(async (tx) => {
      await repo.updateUser(tx, user.id, { passwordHash });
      await audit(tx, {
        userId: user.id,
        action: 'password_changed',
        entity: 'user',
        entityId: user.id,
        ip: caller.ip,
      });
    });
    // Whoever else holds a session of this account (maybe the reason for the change) is out.
    await this.ctx.sessions.revokeWhere({ userId: user.id }, 'password_changed', auth.sessionId);
  }

  async resetPassword(body: { token: string; newPassword: string }, caller: Caller): Promise<void> {
    const passwordHash = await hashPassword(body.newPassword);
    const userId = await this.db.transaction(async (tx) => {
      const id = await repo.consumeEmailToken(tx, body.token, 'reset');
      if (id === null) return null;
      const user = await repo.findUserById(tx, id);
      // Following the link proves the address, so an unconfirmed account becomes confirmed.
      await repo.updateUser(tx, id, { passwordHash, emailConfirmedAt: user?.emailConfirmedAt ?? new Date() });
      await audit(tx, { userId: id, action: 'password_reset', entity: 'user', entityId: id, ip: caller.ip });
      return id;
    });
    if (userId === null) throw invalidToken();
    await this.ctx.sessions.revokeWhere({ userId }, 'password_reset');
  }

  // ---- registration and e-mails ---------------------------------------------------------------

  /**
   * Self-registration of a guest. The answer is the same whether the address was free or taken
   * (the owner of a taken address gets a "you already have an account" message instead).
   */
  async register(
    body: {
      email: string;
      password: string;
      surname: string;
      name: string;
      patronymic?: string | undefined;
      parallel?: number | undefined;
    },
    caller: Caller,
  ): Promise<void> {
    await this.countAttempt({ registerIp: addressKey(caller.ip) });
    const email = body.email.toLowerCase();
    // Hash first in both branches, so the time taken does not tell whether the address is known.
    const passwordHash = await hashPassword(body.password);
    const created = await this.db.transaction(async (tx) => {
      if (await repo.findUserByEmail(tx, email)) return null;
      const user = await repo.insertUser(
        tx,
        {
          login: email,
          email,
          surname: body.surname,
          name: body.name,
          patronymic: body.patronymic || null,
          passwordHash,
          emailConfirmedAt: null,
          profile: body.parallel === undefined ? {} : { parallel: body.parallel },
        },
        ['guest'],
      );
      if (!user) return null;
      await audit(tx, {
        userId: user.id,
        action: 'registered',
        entity: 'user',
        entityId: user.id,
        ip: caller.ip,
      });
      return { user, token: await repo.issueEmailToken(tx, user.id, 'confirm', CONFIRM_TTL_MS) };
    });
    if (created) this.sendMail(confirmationMail(email, caller.origin, created.token));
    else this.sendMail(alreadyRegisteredMail(email, caller.origin));
  }

  async confirmEmail(token: string, caller: Caller): Promise<void> {
    await this.countAttempt({ registerIp: addressKey(caller.ip) });
    const confirmed = await this.db.transaction(async (tx) => {
      const userId = await repo.consumeEmailToken(tx, token, 'confirm');
      if (userId === null) return false;
      await repo.updateUser(tx, userId, { emailConfirmedAt: new Date() });
      await audit(tx, { userId, action: 'email_confirmed', entity: 'user', entityId: userId, ip: caller.ip });
      return true;
    });
    if (!confirmed) throw invalidToken();
  }

  /** (Re)sends a confirmation or a reset link. Silent about whether the address is known. */
  async sendAccountMail(body: { email: string; kind: 'confirm' | 'reset' }, caller: Caller): Promise<void> {
    const email = body.email.toLowerCase();
    await this.countAttempt({ mailAddress: email, mailIp: addressKey(caller.ip) });
    const user = await repo.findUserByEmail(this.db, email);
    if (!user?.email || user.isBlocked) return;
    if (body.kind === 'confirm') {
      if (user.emailConfirmedAt) return;
      const token = await repo.issueEmailToken(this.db, user.id, 'confirm', CONFIRM_TTL_MS);
      this.sendMail(confirmationMail(user.email, caller.origin, token));
      return;
    }
    const token = await repo.issueEmailToken(this.db, user.id, 'reset', RESET_TTL_MS);
    this.sendMail(resetMail(user.email, caller.origin, token));
  }

  /** Counts one attempt against each counter (kept whatever the outcome), 429 once one is spent. */
  private async countAttempt(keys: ThrottleKeys): Promise<void> {
    await this.ctx.throttle.reserve(keys);
  }

  /**
   * Mail goes out without being awaited: waiting for SMTP only on the "address known" branch
   * would tell an observer which addresses have accounts. The mailer keeps an outbox row anyway.
   */
  private sendMail(message: MailMessage): void {
    this.ctx.mailer.send(message).catch((err: unknown) => {
      this.log.error({ err, subject: message.subject }, 'account mail failed');
    });
  }

  // ---- reference data and tools ---------------------------------------------------------------

  parallels() {
    return repo.listParallels(this.db);
  }

  // ---- ending other people's sessions ---------------------------------------------------------

  async logoutByActivationCode(
    auth: AuthContext,
    typed: string,
    caller: Caller,
    reason: string | null = null,
  ): Promise<number> {
    const code = normalizeActivationCode(typed);
    const ended = await this.ctx.sessions.revokeWhere({ activationCode: code }, 'ended_by_staff');
    const target = await repo.findByActivationCode(this.db, code);
    await audit(this.db, {
      userId: auth.userId,
      action: 'sessions_ended',
      entity: 'participant_test',
      entityId: target?.id,
      reason,
      details: { by: 'activation_code', ended },
      ip: caller.ip,
    });
    publishWorkEvent(this.ctx, target?.id, null, 'logged_out', { ended });
    return ended;
  }

  async logoutByAppLogin(
    auth: AuthContext,
    login: string,
    caller: Caller,
    reason: string | null = null,
  ): Promise<number> {
    const user = await repo.findUserByLogin(this.db, login);
    if (!user) return 0;
    const ended = await this.ctx.sessions.revokeWhere({ userId: user.id, appShell: true }, 'ended_by_staff');
    await audit(this.db, {
      userId: auth.userId,
      action: 'sessions_ended',
      entity: 'user',
      entityId: user.id,
      reason,
      details: { by: 'app_login', ended },
      ip: caller.ip,
    });
    return ended;
  }

  /** The participant leaves: only the session ends; the exam work and its answers stay. */
  async logoutParticipant(auth: AuthContext): Promise<void> {
    await this.ctx.sessions.revoke(auth.sessionId, 'participant_left');
  }

  // ---- external login -------------------------------------------------------------------------

  /** The configured provider, or 404 / 400 when there is none or the name is another. */
  requireOidc(provider: string | undefined): OidcClient {
    if (!this.oidc) {
      throw new AppError(
        404,
        'not_configured',
        'External login is not configured on this server (set OIDC_ISSUER and OIDC_CLIENT_ID)',
      );
    }
    if (provider !== undefined && provider.toLowerCase() !== this.oidc.provider.toLowerCase()) {
      throw badRequest(
        'unknown_provider',
        `Unknown login provider; this server offers "${this.oidc.provider}"`,
      );
    }
    return this.oidc;
  }

  async startExternal(oidc: OidcClient, redirectUri: string) {
    try {
      return await oidc.start(redirectUri);
    } catch (err) {
      throw this.unavailable(err);
    }
  }

  /** A provider that cannot be reached is our problem, not a wrong credential: 503, logged. */
  private unavailable(err: unknown): unknown {
    if (!(err instanceof ProviderUnavailableError)) return err;
    this.log.error({ reason: err.message }, 'login provider unavailable');
    return new AppError(
      503,
      'service_unavailable',
      'The external login provider cannot be reached; try again later',
    );
  }

  async finishExternal(oidc: OidcClient, callbackUrl: URL, pending: PendingLogin, caller: Caller) {
    const identity = await oidc.finish(callbackUrl, pending);
    return this.externalSession(oidc, identity, caller);
  }

  /** The app shell exchanges a provider access token (checked at userinfo) for a local session. */
  async obtainLocalAccessToken(
    oidc: OidcClient,
    query: { providerKey: string; externalAccessToken: string },
    caller: Caller,
  ): Promise<OpenedSession> {
    const reservation = await this.ctx.throttle.reserve({ loginIp: addressKey(caller.ip) });
    let identity: ExternalIdentity;
    try {
      identity = await oidc.userInfo(query.externalAccessToken, query.providerKey);
    } catch (err) {
      if (err instanceof ProviderUnavailableError) {
        await reservation.release();
        throw this.unavailable(err);
      }
      this.log.info({ reason: (err as Error).message }, 'external access token refused');
      throw unauthorized('The external access token is not valid for this account', 'invalid_external_token');
    }
    await reservation.release();
    return this.externalSession(oidc, identity, caller);
  }

  private async externalSession(oidc: OidcClient, identity: ExternalIdentity, caller: Caller) {
    const user = await this.externalUser(oidc, identity);
    if (user.isBlocked)
      throw forbidden('This account is blocked; contact your administrator', 'account_blocked');
    await this.auditLogin('login', user.id, caller, { method: 'external', provider: oidc.provider });
    return this.openSession(user.id, 'external', caller);
  }

  /**
   * The local user of an external identity: linked before, or an existing account with the same
   * e-mail when the provider vouches for that address, or a new account with the default role.
   */
  private async externalUser(oidc: OidcClient, identity: ExternalIdentity): Promise<repo.UserRow> {
    const provider = oidc.provider;
    return this.db.transaction(async (tx) => {
      const linked = await repo.findUserByExternal(tx, provider, identity.subject);
      if (linked) return linked;
      const verifiedEmail = identity.emailVerified ? identity.email : null;
      const sameEmail = verifiedEmail ? await repo.findUserByEmail(tx, verifiedEmail) : null;
      if (sameEmail) {
        if (sameEmail.externalSubject) {
          throw forbidden('This e-mail already belongs to another external account', 'account_conflict');
        }
        await repo.updateUser(tx, sameEmail.id, {
          externalProvider: provider,
          externalSubject: identity.subject,
          emailConfirmedAt: sameEmail.emailConfirmedAt ?? new Date(),
        });
        return sameEmail;
      }
      const created = await repo.insertUser(
        tx,
        {
          login: `${provider}-${identity.subject}`.slice(0, 100),
          email: verifiedEmail,
          surname: identity.surname,
          name: identity.name,
          passwordHash: null,
          emailConfirmedAt: verifiedEmail ? new Date() : null,
          externalProvider: provider,
          externalSubject: identity.subject,
        },
        [oidc.settings.defaultRole],
      );
      if (!created) throw forbidden('An account with this login already exists', 'account_conflict');
      return created;
    });
  }
}

/**
 * Sends each account its password-reset link, the way a new account set up by staff gets its
 * first password (accounts made by an import have none). Not awaited by the caller's answer: a
 * failure is logged, and the mailer keeps its outbox row.
 */
export async function sendPasswordSetupMails(
  ctx: AppContext,
  log: FastifyBaseLogger,
  accounts: { userId: number; email: string }[],
  origin: string,
): Promise<void> {
  for (const { userId, email } of accounts) {
    try {
      const token = await repo.issueEmailToken(ctx.db, userId, 'reset', RESET_TTL_MS);
      await ctx.mailer.send(resetMail(email, origin, token));
    } catch (err) {
      log.error({ err, userId }, 'password setup mail failed');
    }
  }
}

// ---- messages ---------------------------------------------------------------------------------

function confirmationMail(to: string, origin: string, token: string): MailMessage {
  const link = `${origin}/account/confirm?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: 'Attesta: подтвердите адрес электронной почты / confirm your e-mail',
    text:
      `Чтобы завершить регистрацию в Attesta, перейдите по ссылке (действует 48 часов):\n${link}\n\n` +
      `To finish your Attesta registration, open this link (valid for 48 hours):\n${link}\n\n` +
      'Если вы не регистрировались, просто удалите это письмо. / If this was not you, ignore this message.',
  };
}

function alreadyRegisteredMail(to: string, origin: string): MailMessage {
  const link = `${origin}/account/forgot`;
  return {
    to,
    subject: 'Attesta: у вас уже есть учётная запись / you already have an account',
    text:
      `Кто-то (возможно, вы) пытался зарегистрироваться в Attesta с этим адресом, но учётная запись уже есть.\n` +
      `Если вы забыли пароль, восстановите его: ${link}\n\n` +
      `Someone (maybe you) tried to register with this address, but you already have an account.\n` +
      `If you forgot your password, reset it here: ${link}`,
  };
}

function resetMail(to: string, origin: string, token: string): MailMessage {
  const link = `${origin}/account/reset?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: 'Attesta: восстановление пароля / password reset',
    text:
      `Чтобы задать новый пароль, перейдите по ссылке (действует 2 часа):\n${link}\n\n` +
      `To set a new password, open this link (valid for 2 hours):\n${link}\n\n` +
      'Если вы не запрашивали восстановление, просто удалите это письмо. / If this was not you, ignore this message.',
  };
}

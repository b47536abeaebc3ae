import type { Role } from '@attesta/contract';

/** Who is calling, resolved once per request by the session plugin. */
export interface AuthContext {
  userId: number;
  login: string;
  displayName: string;
  roles: Role[];
  email: string | null;
  schoolId: number | null;
  ooId: number | null;
  studentId: number | null;
  workerId: number | null;
  /** Participant sessions are bound to one participant test. */
  participantTestId: number | null;
  activationCode: string | null;
  sessionId: string;
  /** cookie: browser session; bearer: app shell/integration token; api_key: integration key. */
  via: 'cookie' | 'bearer' | 'api_key';
  kind: string;
  appShell: boolean;
  expiresAt: Date;
}

export const hasRole = (auth: AuthContext | null | undefined, ...roles: Role[]) =>
  !!auth && roles.some((r) => auth.roles.includes(r));

import { randomInt } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { PowChallenge } from '@attesta/contract';
import { AppError, tooManyRequests } from '../lib/errors.js';
import { hmac } from '../lib/tokens.js';
import { addressKey, type Reservation, type Throttle } from './throttle.js';

/**
 * Proofs of work for activation-code attempts once an address (or the whole service) has spent
 * its free budget of failed guesses: the browser solves a single-use ALTCHA challenge (PBKDF2 /
 * SHA-256 through WebCrypto, about a second) and sends the solution with the code. A student pays
 * that second once; a guesser pays it for every guess. The numbers are in docs/security.md.
 *
 * Deterministic ALTCHA challenges: the server picks the counter, so the work is exactly
 * `counter + 1` key derivations (no unlucky students) and a solution is checked by one HMAC.
 */
export interface PowSettings {
  algorithm: 'PBKDF2/SHA-256';
  cost: number;
  counterMin: number;
  counterMax: number;
  steps: readonly { issuedBelow: number; factor: number }[];
  ttlSeconds: number;
}

export const POW: PowSettings = {
  algorithm: 'PBKDF2/SHA-256',
  /** PBKDF2 iterations of one key derivation (one try of the solver). */
  cost: 1000,
  /** The counter is drawn from this range, times the difficulty factor. */
  counterMin: 1000,
  counterMax: 3000,
  /** Challenges issued service-wide in the counting window → difficulty factor. */
  steps: [
    { issuedBelow: 1000, factor: 1 },
    { issuedBelow: 4000, factor: 4 },
    { issuedBelow: 16000, factor: 16 },
    { issuedBelow: Infinity, factor: 64 },
  ],
  ttlSeconds: 5 * 60,
};

export const proofRequired = () =>
  new AppError(
    428,
    'proof_of_work_required',
    'Too many wrong activation codes from this address: solve GET /api/Account/LoginChallenge and send the proof with the code',
  );
const proofInvalid = () =>
  new AppError(
    400,
    'proof_of_work_invalid',
    'The proof of work is not valid, expired or already used; get a new challenge',
  );

/**
 * Takes the points of one activation-code attempt before the code is looked up. Within the free
 * budgets (per address, service-wide) nothing more is asked; beyond them the attempt must carry a
 * proof (428 `proof_of_work_required` otherwise), which is never refused for the address's sake:
 * a valid code from an address under a guessing attack still signs in. The per-code-string
 * limit stays a plain 429 (a valid code gives its point back, so only a wrong string hits it).
 */
export async function reserveCodeAttempt(
  ctx: { throttle: Throttle; pow: ProofOfWork },
  code: string,
  ip: string,
  proof: string | undefined,
): Promise<Reservation> {
  if (proof !== undefined) {
    await ctx.pow.redeem(proof);
    return ctx.throttle.reserve({ codeKey: code });
  }
  const attempt = await ctx.throttle.tryReserve({ codeKey: code, codeIp: addressKey(ip), codeAll: 'all' });
  if (!('refused' in attempt)) return attempt.reservation;
  if (attempt.refused.includes('codeKey')) throw tooManyRequests(attempt.retryMs / 1000);
  throw proofRequired();
}

export class ProofOfWork {
  private readonly signatureSecret: string;
  private readonly keySecret: string;

  constructor(
    secret: string,
    /** Read at each call: tests swap the throttle of a running app. */
    private readonly throttle: () => Throttle,
    private readonly settings: PowSettings = POW,
  ) {
    this.signatureSecret = hmac(secret, 'altcha-signature');
    this.keySecret = hmac(secret, 'altcha-key');
  }

  /** A new challenge; the more were issued lately, the harder (so stockpiling them costs). */
  async challenge(): Promise<PowChallenge> {
    const issued = await this.throttle().count('powIssued', 'all');
    await this.throttle().reserve({ powIssued: 'all' });
    const s = this.settings;
    const factor = s.steps.find((step) => issued < step.issuedBelow)!.factor;
    const min = s.counterMin * factor;
    // Unpredictable: whoever could predict the counter would skip the work.
    const counter = randomInt(min, s.counterMax * factor + 1);
    const challenge = await createChallenge({
      algorithm: s.algorithm,
      cost: s.cost,
      counter,
      deriveKey,
      expiresAt: new Date(Date.now() + s.ttlSeconds * 1000),
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySecret,
    });
    return { parameters: { ...challenge.parameters }, signature: challenge.signature ?? '' };
  }

  /**
   * Checks a proof (`{challenge, solution}` as JSON) and uses its challenge up, atomically: true
   * once per challenge. 400 `proof_of_work_invalid` for anything else.
   */
  async redeem(proof: string): Promise<void> {
    let parsed: { challenge?: Challenge; solution?: { counter: number; derivedKey: string } };
    try {
      parsed = JSON.parse(proof) as typeof parsed;
    } catch {
      throw proofInvalid();
    }
    const { challenge, solution } = parsed ?? {};
    if (
      !challenge ||
      typeof challenge !== 'object' ||
      typeof challenge.parameters !== 'object' ||
      challenge.parameters === null ||
      typeof challenge.parameters.nonce !== 'string' ||
      !solution ||
      typeof solution !== 'object'
    )
      throw proofInvalid();
    let verified = false;
    try {
      // A challenge without a key signature would make the server derive the key: never ours.
      if (challenge.parameters.keySignature && challenge.parameters.expiresAt) {
        const result = await verifySolution({
          challenge,
          solution,
          deriveKey,
          hmacSignatureSecret: this.signatureSecret,
          hmacKeySignatureSecret: this.keySecret,
        });
        verified = result.verified;
      }
    } catch {
      verified = false;
    }
    if (!verified) throw proofInvalid();
    const ttlMs = Math.max(1000, challenge.parameters.expiresAt! * 1000 - Date.now());
    if (!(await this.throttle().useOnce(`pow:${challenge.parameters.nonce}`, ttlMs))) throw proofInvalid();
  }
}

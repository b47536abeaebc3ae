import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A random secret for the client to hold (session, e-mail token, API key). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** Alphabet without look-alikes (0/O, 1/I/L) so codes survive being read aloud and typed. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * An activation code: 10 symbols of a 31-letter alphabet (~49.5 bits), shown as XXXXX-XXXXX.
 * Unguessable at the rate limits applied to code attempts.
 */
export function activationCode(groups = 2, groupLength = 5): string {
  const parts: string[] = [];
  for (let g = 0; g < groups; g++) {
    let part = '';
    for (let i = 0; i < groupLength; i++) part += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    parts.push(part);
  }
  return parts.join('-');
}

/** Normalises what a person typed: case, spaces and dashes do not matter. */
export function normalizeActivationCode(input: string): string {
  const compact = input.toUpperCase().replace(/[\s_-]/g, '');
  return compact.length === 10 ? `${compact.slice(0, 5)}-${compact.slice(5)}` : compact;
}

/** A registration code for paper forms: digits only, 12 long. */
export function registrationCode(): string {
  let s = '';
  for (let i = 0; i < 12; i++) s += String(randomInt(10));
  return s;
}

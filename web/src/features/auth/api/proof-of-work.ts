import type { PowChallenge } from '@attesta/contract';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

/**
 * Solves a login challenge (ALTCHA v2, PBKDF2/SHA-256 through WebCrypto) and answers the proof
 * the server expects: `JSON.stringify({challenge, solution})`. The server asks for one only after
 * many wrong activation codes from this address; it takes about a second. WebCrypto runs its work
 * off the main thread (the page stays alive); a few interleaved searches use several cores where
 * the browser runs them in parallel.
 */
export async function solveLoginChallenge(challenge: PowChallenge, signal?: AbortSignal): Promise<string> {
  const lanes = Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 2));
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop);
  try {
    const solutions = await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        const solution = await solveChallenge({
          challenge: challenge as unknown as Challenge,
          deriveKey,
          controller,
          counterStart: lane,
          counterStep: lanes,
          timeout: 10 * 60_000,
        });
        // The first lane to find it stops the others.
        if (solution) stop();
        return solution;
      }),
    );
    const solution = solutions.find((s) => s !== null);
    if (!solution) throw new Error('The check was stopped before it finished');
    return JSON.stringify({
      challenge,
      solution: { counter: solution.counter, derivedKey: solution.derivedKey },
    });
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** This route's own security headers, merged over the app's (e.g. sandboxed content packages). */
    helmet?: HelmetOptions;
  }
}

/** The app's security headers and strict Content Security Policy. */
export const SECURITY_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine sets style attributes; no inline scripts are allowed.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      mediaSrc: ["'self'", 'blob:'],
      frameSrc: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
    },
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'same-origin' },
};

/**
 * The headers helmet sets for these options, worked out once. Helmet's middleware only sets
 * fixed headers for fixed options (no nonces here), so running it against a recording response
 * gives exactly what it would set on every real one.
 */
export function securityHeadersOf(options: HelmetOptions): Record<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  let error: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    error = err;
  });
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return Object.fromEntries(headers);
}

/**
 * Security headers and a strict Content Security Policy for the web app. Interactive content
 * packages (html containers) are served with their own sandboxing headers (the route's `helmet`
 * config, merged over these) by the kim module.
 *
 * The headers are computed once per set of options, not per request as @fastify/helmet does (it
 * runs helmet's whole middleware chain, parsing the CSP directives, on every response): at
 * thousands of saves a second that was about 5 % of the server's time.
 */
/**
 * The headers that mean something on a script or stylesheet a page loads: a browser applies the
 * Content Security Policy, framing, opener and cross-domain policies of the document (or worker) that
 * loads them, never of a subresource, so those would only add ≈ 0.5 kB to every file of the
 * participant's path (docs/BENCHMARKS.md, issue 24). Kept: nosniff (no MIME confusion), the
 * cross-origin resource policy (no cross-site inclusion), HSTS and the referrer policy (a stylesheet's
 * own requests follow it).
 */
const SUBRESOURCE_HEADER_NAMES = [
  'x-content-type-options',
  'cross-origin-resource-policy',
  'strict-transport-security',
  'referrer-policy',
];

/**
 * A hashed script or stylesheet of the built client (web/dist/assets). Worker scripts (the PDF
 * viewer's) take their policy from their own response, and anything else there (an SVG opened as a
 * document, a font) keeps the full set.
 */
export function isClientSubresource(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return path.startsWith('/assets/') && /\.(m?js|css)$/.test(path) && !/worker/i.test(path);
}

export const securityPlugin = fp(
  async (app) => {
    const common = securityHeadersOf(SECURITY_HEADERS);
    const subresource = Object.fromEntries(SUBRESOURCE_HEADER_NAMES.map((name) => [name, common[name]!]));
    // Each route's headers, worked out when it is added: a request only copies them.
    const perRoute = new Map<string, Record<string, string>>();
    const cached = new WeakMap<HelmetOptions, Record<string, string>>();
    app.addHook('onRoute', (route) => {
      const own = route.helmet;
      if (!own) return;
      const headers = cached.get(own) ?? securityHeadersOf({ ...SECURITY_HEADERS, ...own } as HelmetOptions);
      cached.set(own, headers);
      for (const method of [route.method].flat()) perRoute.set(`${method} ${route.url}`, headers);
    });
    app.addHook('onRequest', (req, reply, done) => {
      const own = perRoute.get(`${req.method} ${req.routeOptions.url}`);
      reply.headers(own ?? (isClientSubresource(req.url) ? subresource : common));
      done();
    });
  },
  { name: 'security' },
);

/**
 * Where a help section shows, in words: its pages are address prefixes of the web app
 * (`/coordinator/reports`), which the admin's list writes out as the screens they cover
 * («Показывается: Школьный координатор: отчёты»).
 */
import { HOME_ROLES } from '../../../lib/roles';

type T = (key: string, options?: Record<string, unknown>) => string;

/** Public and own pages with a name of their own (keys of `contentHelp.where.pages`). */
const PAGES = [
  '/login',
  '/account/register',
  '/account/confirm',
  '/account/forgot',
  '/account/reset',
  '/account/password',
  '/account/feedback',
  '/account',
  '/verify',
  '/unauthorized',
  '/error',
  '/participant',
  '/participant/work',
  '/participant/result',
];
/** Sections of the roles' work places (keys of `contentHelp.where.sections`). */
const SECTIONS = new Set([
  'reports',
  'protocol',
  'room',
  'students',
  'classes',
  'buildings',
  'organizators',
  'diagnostics',
  'queue',
  'worker-tests',
  'workers',
  'results',
  'roster',
  'grading',
  'profile',
  'users',
  'schools',
  'audit',
  'api-keys',
  'api-docs',
  'content',
  'feedback',
  'area',
  'attempts',
]);
const ROLES = new Set<string>(HOME_ROLES);

/** One page prefix in words. */
export function placeOf(path: string, where: T, role: (r: string) => string): string {
  const p = path.trim().toLowerCase().replace(/\/+$/, '');
  if (!p) return where('everywhere');
  if (PAGES.includes(p)) return where(`pages.${p}`);
  const [first = '', second, ...rest] = p.split('/').filter(Boolean);
  if (ROLES.has(first)) {
    if (second === undefined) return where('roleAll', { role: role(first) });
    if (SECTIONS.has(second)) {
      const place = where('roleSection', { role: role(first), section: where(`sections.${second}`) });
      return rest.length ? where('deeper', { place, path: p }) : place;
    }
  }
  const known = PAGES.filter((k) => p.startsWith(`${k}/`)).sort((a, b) => b.length - a.length)[0];
  if (known) return where('deeper', { place: where(`pages.${known}`), path: p });
  return where('unknown', { path: p });
}

/** «Показывается: …» for a section's pages; none: general help, on every page. */
export function whereShown(pages: readonly string[], where: T, role: (r: string) => string): string {
  const places = pages.length ? pages.map((p) => placeOf(p, where, role)) : [where('everywhere')];
  return where('shown', { places: places.join('; ') });
}

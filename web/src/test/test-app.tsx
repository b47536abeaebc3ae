/** Renders the real route table in a memory router against a scripted fake server. */
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { ComponentProps } from 'react';
import { AppProviders as Providers } from '../app/providers';
import { StaffTheme } from '../components/ui/staff-theme';

/**
 * The app's providers, for tests of shared components (which may not import app/ themselves), with
 * Mantine's provider inside as every lazily loaded page has it (components/ui/lazy-page.ts): a
 * component drawn with Mantine is tested as a staff page shows it. `renderApp` uses the app's own.
 */
export function AppProviders({ children, ...props }: ComponentProps<typeof Providers>) {
  return (
    <Providers {...props}>
      <StaffTheme>{children}</StaffTheme>
    </Providers>
  );
}
import { createRoutes } from '../app/router';
// The router loads the start page and the runner as a chunk (route `lazy`); imported here once, so
// a test's first visit to them does not spend its wait on transforming their modules.
import '../features/exam-runner/participant-screens';
import { setApiNavigator } from '../lib/api-client';
import { createI18n } from '../lib/i18n';
import { createQueryClient } from '../lib/query-client';

export type Handler = (request: { body: unknown; headers: Record<string, string>; url: string }) => Response;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

export const apiError = (
  status: number,
  code: string,
  message = code,
  headers: Record<string, string> = {},
) => json(status, { status, code, message }, headers);

export const users = {
  coordinator: { id: 2, login: 'coordinator', displayName: 'Иванова Анна Сергеевна', roles: ['coordinator'] },
  participant: { id: 9, login: 'p-ab12', displayName: 'Участник AB12', roles: ['participant'] },
  multi: { id: 3, login: 'boss', displayName: 'Петров Пётр', roles: ['participant', 'admin', 'expert'] },
} as const;

/**
 * A fake server: handlers keyed by `METHOD /path` (case-insensitive, without query). Unknown calls
 * answer 404 so a test notices them. Every request is recorded for assertions.
 */
export function fakeServer(handlers: Record<string, Handler>) {
  const calls: { key: string; body: unknown; headers: Record<string, string>; url: string }[] = [];
  const lowered = Object.fromEntries(Object.entries(handlers).map(([k, v]) => [k.toLowerCase(), v]));
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ key, body, headers, url });
    const handler = lowered[key.toLowerCase()];
    return handler ? handler({ body, headers, url }) : apiError(404, 'not_found');
  });
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    calls,
    callsTo: (key: string) => calls.filter((c) => c.key.toLowerCase() === key.toLowerCase()),
  };
}

export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  setApiNavigator(
    (to) => void router.navigate(to),
    () => router.state.location.pathname + router.state.location.search,
  );
  const i18n = createI18n('ru');
  const view = render(
    <Providers queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, queryClient, i18n };
}

import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, data, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n, type Language } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { AppProviders, fakeServer, renderApp } from '../../../test/test-app';
import { RouteError } from './route-error';

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

function Crash(): never {
  throw new TypeError("Cannot read properties of undefined (reading 'items')");
}

/** A route whose element or loader fails, under the app's error boundary. */
function renderFailing(route: { element?: ReactNode; loader?: () => unknown }, lang: Language = 'ru') {
  const router = createMemoryRouter(
    [{ path: '/', ...route, errorElement: <RouteError />, hydrateFallbackElement: <p /> }],
    {
      initialEntries: ['/'],
    },
  );
  return render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n(lang)}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('the error page', () => {
  it('shows the status, the code and its text, never the server’s English message', async () => {
    const server = fakeServer({});
    const message = encodeURIComponent('relation "users" does not exist');
    renderApp(`/error?status=500&code=internal_error&message=${message}`);
    const details = await screen.findByTestId('error-details');
    expect(details).toHaveTextContent('500');
    expect(details).toHaveTextContent('internal_error');
    expect(screen.getByTestId('error-explained')).toHaveTextContent('На сервере произошла ошибка.');
    expect(document.body).not.toHaveTextContent('relation');
    expect(document.body).not.toHaveTextContent('Сообщение');
    expect(server.calls).toHaveLength(0);
  });
});

describe('the router’s error boundary', () => {
  it('a crash while rendering shows a generic text in Russian; the exception goes to the console only', async () => {
    renderFailing({ element: <Crash /> });
    expect(await screen.findByTestId('error-title')).toHaveTextContent('Что-то пошло не так');
    expect(screen.getByTestId('error-text')).toHaveTextContent('Страницу не удалось показать из-за ошибки.');
    expect(document.body).not.toHaveTextContent('Cannot read properties');
    expect(document.body).not.toHaveTextContent('TypeError');
    expect(screen.queryByTestId('error-details')).toBeNull();
    expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ name: 'TypeError' }));
  });

  it('a failed loader response shows its status, not its English status text', async () => {
    renderFailing({
      loader: () => {
        throw data('database connection refused', { status: 503, statusText: 'Service Unavailable' });
      },
      element: <p>never</p>,
    });
    expect(await screen.findByTestId('error-details')).toHaveTextContent('503');
    expect(screen.getByTestId('error-text')).toHaveTextContent('Страницу не удалось показать из-за ошибки.');
    expect(document.body).not.toHaveTextContent('Service Unavailable');
    expect(document.body).not.toHaveTextContent('connection refused');
  });

  it('speaks English to an English interface', async () => {
    renderFailing({ element: <Crash /> }, 'en');
    expect(await screen.findByTestId('error-title')).toHaveTextContent('Something went wrong');
    expect(screen.getByTestId('error-text')).toHaveTextContent(
      'The page could not be shown because of an error.',
    );
    expect(document.body).not.toHaveTextContent('Cannot read properties');
  });

  it('a 404 response is the not-found page', async () => {
    renderFailing({
      loader: () => {
        throw data(null, { status: 404, statusText: 'Not Found' });
      },
      element: <p>never</p>,
    });
    expect(await screen.findByText('Страница не найдена')).toBeInTheDocument();
  });
});

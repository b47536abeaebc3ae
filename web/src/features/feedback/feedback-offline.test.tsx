import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users } from '../../test/test-app';

// The feedback modal is a chunk the header's button loads on its first click
// (components/feedback-button.tsx). Here that chunk cannot be loaded, as offline before it ever was.
vi.mock('./components/feedback-dialog', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('feedback without its chunk', () => {
  it('the button says feedback needs a connection and the page stays as it was', async () => {
    fakeServer({
      'GET /api/user': () => json(200, { ...users.coordinator, schoolId: 1 }),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'GET /api/notification/getList/0': () => json(200, { items: [], total: 0, unread: 0 }),
    });
    renderApp('/account/password');
    const button = await screen.findByTestId('feedback-open');
    expect(button).toHaveTextContent('Обратная связь');
    await userEvent.click(button);
    expect(await screen.findByText('Обратная связь недоступна без сети')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The page itself is still there.
    expect(screen.getByTestId('feedback-open')).toBeInTheDocument();
  });
});

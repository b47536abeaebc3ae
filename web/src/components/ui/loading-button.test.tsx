import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoadingButton } from './loading-button';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('LoadingButton', () => {
  it('adds is-loading while the request runs and prevents a double submit', async () => {
    const request = deferred();
    const onClick = vi.fn(() => request.promise);
    render(
      <MantineProvider>
        <LoadingButton onClick={onClick}>Сохранить</LoadingButton>
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: 'Сохранить' });
    expect(button).not.toHaveClass('is-loading');
    await userEvent.click(button);
    expect(button).toHaveClass('is-loading');
    expect(button).toHaveAttribute('data-loading');
    await userEvent.click(button, { pointerEventsCheck: 0 });
    expect(onClick).toHaveBeenCalledTimes(1);
    await act(async () => request.resolve());
    expect(button).not.toHaveClass('is-loading');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('follows an outside loading state (a form submit button)', () => {
    render(
      <MantineProvider>
        <LoadingButton type="submit" loading>
          Войти
        </LoadingButton>
      </MantineProvider>,
    );
    expect(screen.getByRole('button', { name: /Войти/ })).toHaveClass('is-loading');
  });
});

// The lite overlays (issue 24): keyboard, focus and the ARIA each promises.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { createQueryClient } from '../../lib/query-client';
import { AppProviders } from '../../test/test-app';
import { Segmented, Switch } from './choice';
import { Dialog } from './dialog';
import { notifications } from './notify';
import { Popover } from './popover';
import { Tooltip } from './tooltip';

function wrap(ui: ReactNode) {
  return render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      {ui}
    </AppProviders>,
  );
}

function DialogDemo(props: { closeOnEscape?: boolean; drawer?: 'left' | 'right' }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button onClick={() => setOpened(true)}>Открыть</button>
      <button>За диалогом</button>
      <Dialog opened={opened} onClose={() => setOpened(false)} title="Завершить работу?" {...props}>
        <input aria-label="Поле" />
        <button data-autofocus={props.drawer ? undefined : true}>Остаться</button>
        <button>Завершить</button>
      </Dialog>
    </>
  );
}

afterEach(() => {
  act(() => notifications.clean());
  vi.useRealTimers();
});

describe('Dialog', () => {
  it('is a modal dialog named by its title, focus moved in, trapped, and given back on Escape', async () => {
    wrap(<DialogDemo />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Завершить работу?' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(document.body.style.overflow).toBe('hidden');
    // data-autofocus gets the focus.
    expect(within(dialog).getByRole('button', { name: 'Остаться' })).toHaveFocus();
    await userEvent.tab();
    expect(within(dialog).getByRole('button', { name: 'Завершить' })).toHaveFocus();
    // Tab past the last control goes round to the first (the close button), never behind.
    await userEvent.tab();
    expect(within(dialog).getByRole('button', { name: 'Закрыть' })).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(within(dialog).getByRole('button', { name: 'Завершить' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
    expect(document.body.style.overflow).toBe('');
  });

  it('the close button is named in the reader’s language and closes; Escape can be turned off', async () => {
    wrap(<DialogDemo closeOnEscape={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    await userEvent.keyboard('{Escape}');
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Закрыть' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Открыть' })).toHaveFocus();
  });

  it('a drawer is a dialog too, focusing its close button when nothing asks for focus', async () => {
    wrap(<DialogDemo drawer="left" />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    const dialog = screen.getByRole('dialog', { name: 'Завершить работу?' });
    expect(dialog.closest('[data-drawer]')).toHaveAttribute('data-drawer', 'left');
    expect(within(dialog).getByRole('button', { name: 'Закрыть' })).toHaveFocus();
    // Focus that lands behind the dialog comes back in.
    act(() => screen.getByRole('button', { name: 'За диалогом', hidden: true }).focus());
    expect(dialog.contains(document.activeElement)).toBe(true);
  });
});

describe('Popover', () => {
  function Demo() {
    return (
      <>
        <Popover
          width={200}
          target={(p) => (
            <button {...p} type="button">
              Инструменты
            </button>
          )}
          panelProps={{ 'data-testid': 'panel' }}
        >
          <button>Первая</button>
          <button>Вторая</button>
        </Popover>
        <button>Снаружи</button>
      </>
    );
  }

  it('a disclosure: aria-expanded and aria-controls, focus in, Escape back to the button', async () => {
    wrap(<Demo />);
    const button = screen.getByRole('button', { name: 'Инструменты' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('panel')).not.toBeVisible();
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByTestId('panel');
    expect(button).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toBeVisible();
    expect(within(panel).getByRole('button', { name: 'Первая' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('closes on a click outside and when focus leaves it', async () => {
    wrap(<Demo />);
    const button = screen.getByRole('button', { name: 'Инструменты' });
    await userEvent.click(button);
    await userEvent.click(screen.getByRole('button', { name: 'Снаружи' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Вторая' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Снаружи' })).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('Tooltip', () => {
  it('describes its element, shows on hover and focus, and Escape hides it', async () => {
    wrap(
      <Tooltip label="Осталось 2 паузы">
        <button aria-describedby="own">Пауза</button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'Пауза' });
    const tip = screen.getByRole('tooltip', { hidden: true });
    expect(button.getAttribute('aria-describedby')).toBe(`own ${tip.id}`);
    expect(tip).toHaveTextContent('Осталось 2 паузы');
    await userEvent.tab();
    expect(button).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(tip.parentElement).toHaveAttribute('data-dismissed', 'true');
    fireEvent.blur(button);
    expect(tip.parentElement).not.toHaveAttribute('data-dismissed');
  });

  it('disabled or without a label: the element alone', () => {
    wrap(
      <Tooltip label="x" disabled>
        <button>Пауза</button>
      </Tooltip>,
    );
    expect(screen.getByRole('button', { name: 'Пауза' })).not.toHaveAttribute('aria-describedby');
    expect(screen.queryByRole('tooltip', { hidden: true })).toBeNull();
  });
});

describe('notifications', () => {
  it('shows in a live region with a named close button; an error is an alert', async () => {
    wrap(null);
    const region = screen.getByRole('region', { name: 'Всплывающие сообщения' });
    expect(region.querySelector('[aria-live="polite"]')).not.toBeNull();
    act(() => void notifications.show({ title: 'Сохранено', message: 'Ответ принят' }));
    const status = within(region).getByRole('status');
    expect(status).toHaveTextContent('Сохранено');
    expect(status).toHaveTextContent('Ответ принят');
    act(() => void notifications.show({ color: 'red', message: 'Отказ', autoClose: false }));
    expect(within(region).getByRole('alert')).toHaveTextContent('Отказ');
    await userEvent.click(within(within(region).getByRole('alert')).getByRole('button', { name: 'Закрыть' }));
    expect(within(region).queryByRole('alert')).toBeNull();
  });

  it('closes by itself after autoClose, unless held; hide and update by id', () => {
    vi.useFakeTimers();
    wrap(null);
    act(() => void notifications.show({ id: 'a', message: 'Первое', autoClose: 1000 }));
    act(() => void notifications.show({ id: 'b', message: 'Второе', autoClose: false }));
    act(() => notifications.update({ id: 'b', message: 'Второе, новое' }));
    expect(screen.getByText('Второе, новое')).toBeInTheDocument();
    // The pointer on a notification stops its clock.
    fireEvent.mouseEnter(screen.getByText('Первое').closest('.lite-toast')!);
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByText('Первое')).toBeInTheDocument();
    fireEvent.mouseLeave(screen.getByText('Первое').closest('.lite-toast')!);
    act(() => vi.advanceTimersByTime(1001));
    expect(screen.queryByText('Первое')).toBeNull();
    act(() => notifications.hide('b'));
    expect(screen.queryByText('Второе, новое')).toBeNull();
    // The same id again replaces, never doubles.
    act(() => void notifications.show({ id: 'c', message: 'Раз', autoClose: false }));
    act(() => void notifications.show({ id: 'c', message: 'Два', autoClose: false }));
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });
});

describe('Segmented and Switch', () => {
  it('a radio group named by its legend, and a switch with role="switch"', async () => {
    const onSize = vi.fn();
    const onLine = vi.fn();
    wrap(
      <>
        <Segmented
          legend="Размер текста"
          value="normal"
          onChange={onSize}
          data={[
            { value: 'normal', label: 'Обычный' },
            { value: 'large', label: 'Крупный' },
          ]}
        />
        <Switch label="Линейка" checked={false} onChange={(e) => onLine(e.currentTarget.checked)} />
      </>,
    );
    const group = screen.getByRole('group', { name: 'Размер текста' });
    expect(within(group).getByRole('radio', { name: 'Обычный' })).toBeChecked();
    await userEvent.click(within(group).getByRole('radio', { name: 'Крупный' }));
    expect(onSize).toHaveBeenCalledWith('large');
    const line = screen.getByRole('switch', { name: 'Линейка' });
    await userEvent.click(line);
    expect(onLine).toHaveBeenCalledWith(true);
  });
});

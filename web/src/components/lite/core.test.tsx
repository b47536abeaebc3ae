import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter, Link } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Loader,
  NativeSelect,
  PasswordInput,
  Radio,
  Text,
  TextInput,
} from './core';

describe('the light core (components/lite/core)', () => {
  it('a text field is named by its label and described by its hint and its error', () => {
    render(
      <TextInput
        label="Код"
        description="Выдаёт организатор"
        error="Неверный код"
        required
        data-testid="code"
      />,
    );
    const input = screen.getByRole('textbox', { name: /Код/ });
    expect(input).toBe(screen.getByTestId('code'));
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Выдаёт организатор Неверный код');
  });

  it('a password field shows its text on the toggle, which says whether it is pressed', async () => {
    render(<PasswordInput label="Пароль" />);
    const field = screen.getByLabelText('Пароль');
    expect(field).toHaveAttribute('type', 'password');
    const toggle = screen.getByRole('button', { name: 'Показать пароль' });
    await userEvent.click(toggle);
    expect(field).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it('a button is a button (type="button" unless told), disabled while loading; a link when asked', async () => {
    const onClick = vi.fn();
    const { rerender } = render(<Button onClick={onClick}>Начать</Button>);
    const button = screen.getByRole('button', { name: 'Начать' });
    expect(button).toHaveAttribute('type', 'button');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
    rerender(
      <Button onClick={onClick} loading>
        Начать
      </Button>,
    );
    expect(button).toBeDisabled();
    render(
      <MemoryRouter>
        <Button component={Link} to="/participant">
          На главную
        </Button>
        <Anchor component={Link} to="/help">
          Помощь
        </Anchor>
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/participant');
    expect(screen.getByRole('link', { name: 'Помощь' })).toHaveAttribute('href', '/help');
  });

  it('checkbox and radio groups are named fieldsets that keep the value', async () => {
    function Form() {
      const [many, setMany] = useState<string[]>([]);
      const [one, setOne] = useState('');
      return (
        <>
          <Checkbox.Group label="Что понравилось" value={many} onChange={setMany}>
            <Checkbox value="a" label="Задачи" />
            <Checkbox value="b" label="Время" />
          </Checkbox.Group>
          <Radio.Group label="Оценка" withAsterisk value={one} onChange={setOne}>
            <Radio value="1" label="Плохо" />
            <Radio value="5" label="Отлично" />
          </Radio.Group>
          <output data-testid="value">{JSON.stringify({ many, one })}</output>
        </>
      );
    }
    render(<Form />);
    expect(screen.getByRole('group', { name: 'Что понравилось' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: /Оценка/ })).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Время'));
    await userEvent.click(screen.getByLabelText('Задачи'));
    await userEvent.click(screen.getByLabelText('Время'));
    await userEvent.click(screen.getByLabelText('Отлично'));
    expect(screen.getByTestId('value')).toHaveTextContent('{"many":["a"],"one":"5"}');
    expect(screen.getByLabelText('Отлично')).toBeChecked();
  });

  it('a select lists its data; an alert is named by its title and closes by a named button', async () => {
    const onClose = vi.fn();
    render(
      <>
        <NativeSelect aria-label="Ответ" data={['', { value: 'r1', label: 'А) Война и мир' }]} />
        <Alert title="Сообщение" withCloseButton closeButtonLabel="Скрыть" onClose={onClose}>
          <Text>Осталось 5 минут</Text>
        </Alert>
        <Loader size="sm" />
      </>,
    );
    expect(screen.getByRole('option', { name: 'А) Война и мир' })).toBeInTheDocument();
    expect(screen.getByRole('alert', { name: 'Сообщение' })).toHaveAccessibleDescription('Осталось 5 минут');
    await userEvent.click(screen.getByRole('button', { name: 'Скрыть' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(screen.getByRole('progressbar', { name: 'Загрузка…' })).toBeInTheDocument();
  });
});

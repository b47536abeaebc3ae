import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Segmented } from './segmented';

function Harness({ onChange }: { onChange?: (v: string) => void }) {
  const [value, setValue] = useState<'ru' | 'en' | 'de'>('ru');
  return (
    <>
      <button type="button">before</button>
      <Segmented
        label="Language"
        value={value}
        onChange={(v) => {
          setValue(v);
          onChange?.(v);
        }}
        options={[
          { value: 'ru', label: <span aria-label="Русский">RU</span> },
          { value: 'en', label: 'EN' },
          { value: 'de', label: 'DE' },
        ]}
        data-testid="switch"
      />
      <button type="button">after</button>
    </>
  );
}

describe('lite Segmented', () => {
  it('is a named radio group of named radios, the value checked', () => {
    render(<Harness />);
    const group = screen.getByRole('radiogroup', { name: 'Language' });
    expect(group).toBe(screen.getByTestId('switch'));
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => (r as HTMLInputElement).checked)).toEqual([true, false, false]);
    expect(screen.getByRole('radio', { name: 'Русский' })).toBeChecked();
    // One name: the browser treats them as one group (one Tab stop, arrow keys).
    expect(new Set(radios.map((r) => r.getAttribute('name'))).size).toBe(1);
  });

  it('is one Tab stop on the checked option; arrow keys choose; a click on the label chooses', async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Русский' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'EN' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'EN' })).toHaveFocus();
    expect(onChange).toHaveBeenLastCalledWith('en');
    await user.tab();
    expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
    await user.click(screen.getByText('DE'));
    expect(screen.getByRole('radio', { name: 'DE' })).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith('de');
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs } from './tabs';

type Tab = 'a' | 'b' | 'c';

function Harness({ initial = 'a' as Tab }) {
  const [value, setValue] = useState<Tab>(initial);
  return (
    <>
      <button type="button">before</button>
      <Tabs<Tab>
        label="Ways in"
        value={value}
        onChange={setValue}
        tabs={[
          { value: 'a', label: 'Code', panel: <input aria-label="code field" />, testId: 'tab-a' },
          { value: 'b', label: 'Password', panel: <p>password panel</p> },
          { value: 'c', label: 'Other', panel: <p>other panel</p> },
        ]}
      />
    </>
  );
}

describe('lite Tabs', () => {
  it('is a named tablist whose selected tab controls the one panel shown, which it names', () => {
    render(<Harness initial="b" />);
    expect(screen.getByRole('tablist', { name: 'Ways in' })).toBeInTheDocument();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false']);
    const panel = screen.getByRole('tabpanel');
    expect(panel).toHaveAttribute('id', tabs[1]!.getAttribute('aria-controls'));
    expect(screen.getByRole('tabpanel', { name: 'Password' })).toHaveTextContent('password panel');
    expect(screen.queryByText('other panel')).toBeNull();
    expect(screen.getByTestId('tab-a')).toBe(tabs[0]);
  });

  it('keeps only the selected tab in the Tab order (roving tabindex); Tab goes on into the panel', async () => {
    render(<Harness initial="b" />);
    const user = userEvent.setup();
    expect(screen.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([-1, 0, -1]);
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(screen.getByRole('tab', { name: 'Password' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    await user.tab();
    expect(screen.getByRole('textbox', { name: 'code field' })).toHaveFocus();
  });

  it('moves and selects with the arrow keys (wrapping), Home and End', async () => {
    render(<Harness />);
    const user = userEvent.setup();
    const tab = (name: string) => screen.getByRole('tab', { name });
    await user.click(tab('Code'));
    await user.keyboard('{ArrowRight}');
    expect(tab('Password')).toHaveFocus();
    expect(tab('Password')).toHaveAttribute('aria-selected', 'true');
    expect(tab('Password')).toHaveAttribute('tabindex', '0');
    expect(tab('Code')).toHaveAttribute('tabindex', '-1');
    await user.keyboard('{End}');
    expect(tab('Other')).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('other panel');
    await user.keyboard('{ArrowRight}');
    expect(tab('Code')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(tab('Other')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    expect(tab('Code')).toHaveAttribute('aria-selected', 'true');
    await user.click(tab('Password'));
    expect(screen.getByRole('tabpanel', { name: 'Password' })).toBeInTheDocument();
  });
});

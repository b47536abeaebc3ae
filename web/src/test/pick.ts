/**
 * Chooses `option` in the Mantine select (or multi-select) labelled `label` within `scope`: clicks
 * the input, waits for its listbox (portalled, found by `aria-controls`) and clicks the option.
 * `hidden` also finds an input inside a modal whose portal is aria-hidden.
 */
import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

export async function pick(
  scope: HTMLElement,
  label: RegExp | string,
  option: RegExp | string,
  { hidden = false }: { hidden?: boolean } = {},
) {
  const input = within(scope).getByRole('combobox', { name: label, hidden });
  await userEvent.click(input);
  const listbox = await waitFor(() => {
    const list = document.getElementById(input.getAttribute('aria-controls') ?? '');
    if (!list) throw new Error(`no list of ${String(label)}`);
    return list;
  });
  await userEvent.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../test/test-app';
import { createI18n } from '../../lib/i18n';
import { createQueryClient } from '../../lib/query-client';
import { ServerSelect, type ServerOption } from './server-select';

const schools: ServerOption[] = Array.from({ length: 30 }, (_, i) => ({
  value: String(i + 1),
  label: i === 0 ? 'Лицей № 1' : `Школа № ${i + 1}`,
}));

/** A server that answers the first ten matches, as a paged search does. */
const fakeSearch = () =>
  vi.fn(async (text: string) => schools.filter((s) => s.label.includes(text)).slice(0, 10));

function Harness(props: {
  search: ReturnType<typeof fakeSearch>;
  labelOf?: (id: number) => Promise<string | null>;
  initial?: number | null;
  options?: ServerOption[];
}) {
  const [value, setValue] = useState<number | null>(props.initial ?? null);
  return (
    <>
      <ServerSelect
        label="Школа"
        value={value}
        onChange={(id) => setValue(id)}
        queryKey={['test-schools']}
        search={props.search}
        labelOf={props.labelOf}
        options={props.options ?? null}
      />
      <output data-testid="value">{value ?? 'none'}</output>
      <button type="button" onClick={() => setValue(25)}>
        из ссылки
      </button>
    </>
  );
}

const renderHarness = (props: Parameters<typeof Harness>[0]) =>
  render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      <Harness {...props} />
    </AppProviders>,
  );

const options = () => screen.findAllByRole('option', { hidden: true });

describe('ServerSelect', () => {
  it('asks the server for what is typed and shows its answer as it is; the chosen one keeps its label', async () => {
    const search = fakeSearch();
    renderHarness({ search });
    const input = screen.getByRole('combobox', { name: 'Школа' });
    await userEvent.click(input);
    expect((await options()).length).toBe(10);
    await userEvent.type(input, 'Школа № 2');
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('Школа № 2', expect.anything()));
    // "Школа № 2", "Школа № 20" … "Школа № 29": what the server answered, not filtered again here.
    await waitFor(async () => expect((await options()).map((o) => o.textContent)).toContain('Школа № 27'));
    await userEvent.click(await screen.findByRole('option', { name: 'Школа № 27', hidden: true }));
    expect(screen.getByTestId('value')).toHaveTextContent('27');
    expect(input).toHaveValue('Школа № 27');
    // The chosen label is the search text: it is not searched for.
    expect(search).not.toHaveBeenCalledWith('Школа № 27', expect.anything());
  });

  it('names a record chosen elsewhere by asking for its label, and names it anew when the value changes', async () => {
    const search = fakeSearch();
    const labelOf = vi.fn(async (id: number) => schools[id - 1]!.label);
    renderHarness({ search, labelOf, initial: 1 });
    const input = screen.getByRole('combobox', { name: 'Школа' });
    await waitFor(() => expect(input).toHaveValue('Лицей № 1'));
    await userEvent.click(screen.getByRole('button', { name: 'из ссылки' }));
    // School 25 is past the first page of the search: only its label call can name it.
    await waitFor(() => expect(input).toHaveValue('Школа № 25'));
    expect(labelOf).toHaveBeenCalledWith(25, expect.anything());
  });

  it('with a known list, asks the server nothing and filters as typed', async () => {
    const search = fakeSearch();
    renderHarness({ search, options: schools.slice(0, 3) });
    const input = screen.getByRole('combobox', { name: 'Школа' });
    await userEvent.click(input);
    expect((await options()).length).toBe(3);
    await userEvent.type(input, 'Лицей');
    await waitFor(async () => expect((await options()).map((o) => o.textContent)).toEqual(['Лицей № 1']));
    expect(search).not.toHaveBeenCalled();
  });
});

import { screen, render, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../test/test-app';
import { createI18n } from '../../lib/i18n';
import { createQueryClient } from '../../lib/query-client';
import type { Checked } from '../../lib/use-api-form';
import {
  DiagnosticForm,
  useDiagnosticForm,
  type DiagnosticCommonBody,
  type DiagnosticFormKey,
} from './diagnostic-form';

const texts: Record<DiagnosticFormKey, string> = {
  'diagnostics.name': 'Название',
  'diagnostics.startsAt': 'Начало окна',
  'diagnostics.endsAt': 'Окончание окна',
  'diagnostics.parallels': 'Параллели',
  'diagnostics.preschool': 'Дошк.',
  'diagnostics.subjectTests': 'Тесты',
  'diagnostics.noSubjectTests': 'Выберите параллели',
  'diagnostics.endsBeforeStart': 'Окончание должно быть позже начала',
  'common.create': 'Создать',
};

const tests = [
  { id: 3, name: 'Математика 7', subjectName: 'Математика', parallels: [7] },
  { id: 4, name: 'Физика 9', subjectName: 'Физика', parallels: [9] },
];

type Body = DiagnosticCommonBody & { extra: string };

function Page({
  send,
  extraErrors,
}: {
  send: (body: Body) => Promise<void>;
  extraErrors?: Record<string, string>;
}) {
  const form = useDiagnosticForm();
  return (
    <DiagnosticForm
      form={form}
      t={(key) => texts[key]}
      subjectTests={tests}
      testId="form"
      beside={<span>beside</span>}
      extraErrors={extraErrors}
      check={(common): Checked<Body> =>
        common.name
          ? { success: true, data: { ...common, extra: 'page' } }
          : { success: false, error: { issues: [{ path: ['name'], code: 'too_small', minimum: 1 }] } }
      }
      send={send}
    >
      <span>the page's fields</span>
    </DiagnosticForm>
  );
}

function renderPage(props: Parameters<typeof Page>[0]) {
  render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      <Page {...props} />
    </AppProviders>,
  );
  return screen.getByTestId('form');
}

describe('DiagnosticForm', () => {
  it('offers the tests of the chosen grades and sends the common values through the page', async () => {
    const send = vi.fn(async () => {});
    const form = renderPage({ send });
    expect(within(form).getByText('beside')).toBeInTheDocument();
    expect(within(form).getByText("the page's fields")).toBeInTheDocument();
    expect(within(form).getByLabelText('Дошк.')).toBeInTheDocument();
    expect(within(form).getByText('Выберите параллели')).toBeInTheDocument();

    await userEvent.type(within(form).getByLabelText(/Название/), 'Весенняя');
    await userEvent.type(within(form).getByLabelText(/Начало окна/), '2026-03-01T09:00');
    await userEvent.type(within(form).getByLabelText(/Окончание окна/), '2026-03-05T18:00');
    await userEvent.click(within(form).getByLabelText('7'));
    await userEvent.click(within(form).getByLabelText('9'));
    await userEvent.click(await within(form).findByLabelText(/Математика 7/));
    await userEvent.click(await within(form).findByLabelText(/Физика 9/));
    // Unticking grade 9 drops its test from the body even though it was ticked.
    await userEvent.click(within(form).getByLabelText('9'));
    await userEvent.click(within(form).getByRole('button', { name: 'Создать' }));

    await waitFor(() => expect(send).toHaveBeenCalledOnce());
    expect(send).toHaveBeenCalledWith({
      name: 'Весенняя',
      startsAt: new Date('2026-03-01T09:00').toISOString(),
      endsAt: new Date('2026-03-05T18:00').toISOString(),
      parallels: [7],
      subjectTestIds: [3],
      extra: 'page',
    });
  });

  it('refuses a window that closes before it opens before sending', async () => {
    const send = vi.fn(async () => {});
    const form = renderPage({ send });
    await userEvent.type(within(form).getByLabelText(/Название/), 'Весенняя');
    await userEvent.type(within(form).getByLabelText(/Начало окна/), '2026-03-05T09:00');
    await userEvent.type(within(form).getByLabelText(/Окончание окна/), '2026-03-01T18:00');
    await userEvent.click(within(form).getByRole('button', { name: 'Создать' }));
    expect(await within(form).findByText('Окончание должно быть позже начала')).toBeInTheDocument();
    expect(within(form).getByLabelText(/Окончание окна/)).toHaveAttribute('aria-invalid', 'true');
    expect(send).not.toHaveBeenCalled();
  });

  it('keeps the page’s own errors from sending', async () => {
    const send = vi.fn(async () => {});
    const form = renderPage({ send, extraErrors: { schoolIds: 'Заполните поле' } });
    await userEvent.type(within(form).getByLabelText(/Название/), 'Весенняя');
    await userEvent.click(within(form).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Создать' })).toBeEnabled());
    expect(send).not.toHaveBeenCalled();
  });
});

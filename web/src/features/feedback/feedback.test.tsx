import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users, type Handler } from '../../test/test-app';

const admin = { id: 1, login: 'admin', displayName: 'Админов Админ', roles: ['admin'] };
const coordinator = { ...users.coordinator, schoolId: 1 };

function server(user: object, extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, user),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/notification/getList/0': () => json(200, { items: [], total: 0, unread: 0 }),
    ...extra,
  });
}

const row = (id: number, status: 'new' | 'in_progress' | 'answered', text: string) => ({
  id,
  subjectId: 15,
  text,
  page: '/coordinator/students/15',
  status,
  sender: { id: 2, name: 'Иванова Анна Сергеевна', login: 'coordinator' },
  hasFile: true,
  createdAt: '2026-03-10T07:15:00.000Z',
  updatedAt: '2026-03-10T07:15:00.000Z',
});
const detail = (status: 'new' | 'in_progress' | 'answered', answer: string | null = null) => ({
  ...row(7, status, 'Не открывается список учащихся'),
  sender: { id: 2, name: 'Иванова Анна Сергеевна', login: 'coordinator', roles: ['coordinator'] },
  fileId: 33,
  fileName: 'screen.png',
  answer,
  answeredAt: answer ? '2026-03-11T08:00:00.000Z' : null,
  answeredBy: answer ? { id: 1, name: 'Админов Админ' } : null,
});

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('feedback', { timeout: 30_000 }, () => {
  it('sends a message with a file and the page it was sent from', async () => {
    const api = server(coordinator, {
      'POST /api/feedback/2': () => json(200, { id: 5, fileId: 8, createdAt: '2026-03-10T07:15:00.000Z' }),
    });
    renderApp('/account/password');
    await userEvent.click(await screen.findByTestId('feedback-open', {}, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Обратная связь' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отправить' }));
    expect(within(dialog).getByText('Напишите сообщение')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Сообщение/), 'Кнопка не работает');
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['png'], 'screen.png', { type: 'image/png' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отправить' }));
    expect(await within(dialog).findByTestId('feedback-sent')).toHaveTextContent('Сообщение отправлено');
    // No number in /account/password: the message is about the sender (their own id).
    const [sent] = api.callsTo('POST /api/feedback/2');
    const form = sent!.body as FormData;
    expect(form.get('text')).toBe('Кнопка не работает');
    expect(form.get('page')).toBe('/account/password');
    expect((form.get('file') as File).name).toBe('screen.png');
  });

  it('says a refused message by its code: too many, too large, a refused type', async () => {
    let answer = apiError(429, 'too_many_requests', 'x', { 'retry-after': '600' });
    server(coordinator, { 'POST /api/feedback/2': () => answer });
    renderApp('/account/password');
    await userEvent.click(await screen.findByTestId('feedback-open', {}, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Обратная связь' });
    await userEvent.type(within(dialog).getByLabelText(/Сообщение/), 'Ещё одно');
    const send = () => userEvent.click(within(dialog).getByRole('button', { name: 'Отправить' }));
    await send();
    expect(await within(dialog).findByTestId('feedback-error')).toHaveTextContent(/10 мин/);
    answer = apiError(413, 'payload_too_large');
    await send();
    await waitFor(() =>
      expect(within(dialog).getByTestId('feedback-error')).toHaveTextContent(
        'Файл или данные слишком большие.',
      ),
    );
    answer = apiError(415, 'unsupported_media_type');
    await send();
    await waitFor(() =>
      expect(within(dialog).getByTestId('feedback-error')).toHaveTextContent(
        'Такой формат данных здесь не принимается.',
      ),
    );
    // The text is kept for another try.
    expect(within(dialog).getByLabelText(/Сообщение/)).toHaveValue('Ещё одно');
  });

  it('«Мои обращения» shows each message with its status and the answer', async () => {
    server(coordinator, {
      'GET /api/feedback/mine': () =>
        json(200, {
          items: [
            {
              id: 7,
              subjectId: 15,
              text: 'Не открывается список',
              page: '/coordinator/students',
              fileId: null,
              fileName: null,
              status: 'answered',
              answer: 'Исправили, обновите страницу',
              answeredAt: '2026-03-11T08:00:00.000Z',
              createdAt: '2026-03-10T07:15:00.000Z',
            },
            {
              ...{ id: 6, subjectId: 2, text: 'Вопрос', page: null, fileId: null, fileName: null },
              status: 'new',
              answer: null,
              answeredAt: null,
              createdAt: '2026-03-09T07:15:00.000Z',
            },
          ],
        }),
    });
    renderApp('/account/feedback');
    const answered = await screen.findByTestId('my-feedback-7', {}, { timeout: 5000 });
    expect(within(answered).getByText('Есть ответ')).toBeInTheDocument();
    expect(within(answered).getByTestId('my-feedback-answer')).toHaveTextContent(
      'Исправили, обновите страницу',
    );
    const waiting = screen.getByTestId('my-feedback-6');
    expect(within(waiting).getByText('Новое')).toBeInTheDocument();
    expect(within(waiting).getByText('Ответа пока нет')).toBeInTheDocument();
    expect(screen.queryByText('answered')).not.toBeInTheDocument();
  });

  it('the inbox filters by status in words, opens a message, takes it in progress and answers it', async () => {
    let current = detail('new');
    const api = server(admin, {
      'POST /api/admin/feedback/list': ({ body }) => {
        const status = (body as { filter?: { status?: string } }).filter?.status;
        const items = [
          row(7, current.status, 'Не открывается список учащихся'),
          row(8, 'answered', 'Спасибо'),
        ];
        const shown = status ? items.filter((i) => i.status === status) : items;
        return json(200, { items: shown, total: shown.length });
      },
      'GET /api/admin/feedback/7': () => json(200, current),
      'PUT /api/admin/feedback/7': ({ body }) => {
        const b = body as { status?: 'new' | 'in_progress'; answer?: string };
        current = b.answer ? detail('answered', b.answer) : detail(b.status!);
        return json(200, current);
      },
    });
    renderApp('/admin/feedback');
    const table = await screen.findByTestId('feedback-inbox', {}, { timeout: 5000 });
    expect(api.callsTo('POST /api/admin/feedback/list')[0]!.body).toMatchObject({
      filter: { status: 'new' },
    });
    expect(within(table).queryByText('Спасибо')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Все' }));
    await waitFor(() => expect(screen.getByText('Спасибо')).toBeInTheDocument());
    await userEvent.click(
      within(screen.getByTestId('feedback-row-7')).getByRole('button', { name: 'Открыть' }),
    );
    const panel = await screen.findByTestId('feedback-detail');
    expect(within(panel).getByText('Иванова Анна Сергеевна')).toBeInTheDocument();
    expect(within(panel).getByText('/coordinator/students/15')).toBeInTheDocument();
    expect(within(panel).getByTestId('feedback-download')).toHaveTextContent('screen.png');
    expect(within(panel).getByText('Школьный координатор')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Взять в работу' }));
    await waitFor(() => expect(within(panel).getByText('В работе')).toBeInTheDocument());
    expect(api.callsTo('PUT /api/admin/feedback/7')[0]!.body).toEqual({ status: 'in_progress' });
    await userEvent.type(within(panel).getByLabelText('Ответ отправителю'), 'Исправили');
    await userEvent.click(within(panel).getByRole('button', { name: 'Ответить' }));
    await waitFor(() => expect(within(panel).getByText('Есть ответ')).toBeInTheDocument());
    expect(api.callsTo('PUT /api/admin/feedback/7')[1]!.body).toEqual({ answer: 'Исправили' });
    expect(within(panel).getByText('Исправили')).toBeInTheDocument();
  });

  it('reads in English', async () => {
    server(admin, {
      'POST /api/admin/feedback/list': () =>
        json(200, { items: [row(7, 'in_progress', 'Broken')], total: 1 }),
    });
    const { i18n } = renderApp('/admin/feedback');
    await screen.findByTestId('feedback-inbox', {}, { timeout: 5000 });
    await i18n.changeLanguage('en');
    expect(await screen.findByRole('button', { name: 'Feedback' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Feedback' })).toBeInTheDocument();
    expect(within(screen.getByTestId('feedback-row-7')).getByText('In progress')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Answered' })).toBeInTheDocument();
  });
});

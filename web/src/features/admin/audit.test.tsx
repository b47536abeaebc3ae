import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pick } from '../../test/pick';
import { fakeServer, json, renderApp, type Handler } from '../../test/test-app';

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };

const event = (id: number, extra = {}) => ({
  id,
  at: '2026-03-10T07:15:00.000Z',
  userId: 12,
  userLogin: 'org1',
  userName: 'Петрова Анна Сергеевна',
  action: 'exam_work.pause',
  entity: 'exam_work',
  entityId: '77',
  reason: 'пожарная тревога',
  details: { minutes: 10, participantTestId: 31, at: '2026-03-10T07:15:00.000Z' },
  ip: '10.1.2.3',
  refs: {
    'exam_work:77': 'Иванов Иван — Математика, 7 класс',
    'participant_test:31': 'Иванов Иван — Математика, 7 класс',
  },
  ...extra,
});

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, admin),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'POST /api/admin/audit/list': () =>
      json(200, {
        items: [
          event(3),
          event(2, {
            action: 'login',
            entity: 'user',
            entityId: '12',
            reason: null,
            details: { method: 'password' },
          }),
          event(1, {
            userId: null,
            userLogin: null,
            userName: null,
            action: 'exam_work.timeout',
            reason: null,
            details: null,
            ip: null,
          }),
          event(4, { action: 'something.new', entity: 'gizmo', details: {} }),
        ],
        total: 4,
      }),
    'GET /api/admin/audit/actions': () =>
      json(200, {
        actions: [
          { action: 'exam_work.pause', count: 5 },
          { action: 'exam_work.timeout', count: 2 },
          { action: 'login', count: 40 },
        ],
      }),
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('the audit trail', { timeout: 30_000 }, () => {
  it('lists who did what and when in words, newest first, with reasons, records and details', async () => {
    const api = server();
    renderApp('/admin/audit');
    const table = await screen.findByTestId('audit-table');
    expect(await within(table).findByText('Пауза')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/audit/list')[0]!.body).toEqual({
      page: 1,
      pageSize: 50,
      sort: { field: 'at', dir: 'desc' },
    });
    const pause = within(table).getByText('Пауза').closest('tr')!;
    expect(within(pause).getByText('Петрова Анна Сергеевна (org1)')).toBeInTheDocument();
    expect(within(pause).getByText('Работа: Иванов Иван — Математика, 7 класс')).toBeInTheDocument();
    expect(within(pause).getByText('пожарная тревога')).toBeInTheDocument();
    expect(within(pause).getByText('Минут: 10')).toBeInTheDocument();
    expect(within(pause).getByText('Регистрация: Иванов Иван — Математика, 7 класс')).toBeInTheDocument();
    expect(
      within(pause).getByText(
        'Прочее: 10.03.2026 ' + new Date('2026-03-10T07:15:00.000Z').toTimeString().slice(0, 5),
      ),
    ).toBeInTheDocument();
    expect(within(pause).getByText('10.1.2.3')).toBeInTheDocument();
    // A sign-in, the system's own action, and an action the screen has no words for yet.
    expect(within(table).getByText('Вход')).toBeInTheDocument();
    expect(
      within(within(table).getByText('Время вышло').closest('tr')!).getByText('Система'),
    ).toBeInTheDocument();
    const unknown = within(table).getByText('Действие без описания').closest('tr')!;
    expect(within(unknown).getByText('Запись')).toBeInTheDocument();
    // No codes or JSON on the screen.
    expect(table.textContent).not.toMatch(/exam_work|something\.new|\{"/);
    expect(within(table).getByRole('button', { name: 'Выгрузить в CSV' })).toBeEnabled();
  });

  it('labels the details in words with the names of their records and links, never ids, codes or JSON', async () => {
    server({
      'POST /api/admin/audit/list': () =>
        json(200, {
          items: [
            event(9, {
              action: 'results.publish',
              entity: 'diagnostic',
              entityId: '12',
              reason: null,
              details: {
                diagnosticId: 12,
                status: 'published',
                subjectTestIds: [21, 22],
                changes: { schoolId: { from: 5, to: 6 }, isBlocked: { from: false, to: true } },
                testDate: '2026-04-15',
                via: 'unheard_of',
              },
              refs: {
                'diagnostic:12': 'ВПР по математике',
                'subject_test:21': 'Математика, 7 класс',
                'school:5': 'Лицей № 1',
                'school:6': 'Гимназия № 2',
              },
            }),
          ],
          total: 1,
        }),
    });
    renderApp('/admin/audit');
    const table = await screen.findByTestId('audit-table');
    const row = (await within(table).findByText('Публикация результатов')).closest('tr')!;
    // A line's whole text (names are links inside it).
    const texts = [...row.querySelectorAll('td, p')].map((el) => el.textContent);
    // The record acted on and the diagnostic of the details: names, linked to the diagnostic's page.
    expect(texts).toContain('Диагностика: ВПР по математике');
    for (const link of within(row).getAllByRole('link', { name: 'ВПР по математике' }))
      expect(link).toHaveAttribute('href', '/admin/diagnostics/12');
    // One test is named and linked; the other no longer exists and is said so, without its id.
    expect(texts).toContain('Предметный тест: Математика, 7 класс, запись удалена');
    expect(within(row).getByRole('link', { name: 'Математика, 7 класс' })).toHaveAttribute(
      'href',
      '/admin/content/tests/21',
    );
    expect(within(row).getByText('Школа:', { exact: false }).textContent).toBe(
      'Школа: Лицей № 1 → Гимназия № 2',
    );
    expect(within(row).getByText('Заблокирован: нет → да')).toBeInTheDocument();
    expect(within(row).getByText('Дата проведения: 15.04.2026')).toBeInTheDocument();
    expect(within(row).getByText('Через: значение без описания')).toBeInTheDocument();
    expect(row.textContent).not.toMatch(
      /\b(12|21|22|5|6)\b|published|unheard_of|diagnosticId|2026-04-15|[{}"]/,
    );
  });

  it('filters on the server by person, area, action and days', async () => {
    const api = server();
    renderApp('/admin/audit');
    await screen.findByTestId('audit-table');
    await userEvent.type(screen.getByTestId('audit-search'), 'петр');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/audit/list').at(-1)!.body).toMatchObject({
        page: 1,
        filter: { search: 'петр' },
      }),
    );
    await pick(document.body, 'Раздел', 'Ход работ');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/audit/list').at(-1)!.body).toMatchObject({
        filter: { search: 'петр', area: 'exam_work' },
      }),
    );
    // The actions offered are those of the area, named with their counts.
    await pick(document.body, 'Действие', 'Время вышло (2)');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/audit/list').at(-1)!.body).toMatchObject({
        filter: { area: 'exam_work', action: 'exam_work.timeout' },
      }),
    );
    await userEvent.type(screen.getByTestId('audit-from'), '2026-03-01');
    await userEvent.type(screen.getByTestId('audit-to'), '2026-03-31');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/audit/list').at(-1)!.body).toMatchObject({
        filter: { from: '2026-03-01', to: '2026-03-31' },
      }),
    );
  });

  it('speaks English', async () => {
    server();
    const { i18n } = renderApp('/admin/audit');
    await act(() => i18n.changeLanguage('en'));
    const table = await screen.findByTestId('audit-table');
    expect(await within(table).findByText('Pause')).toBeInTheDocument();
    expect(within(table).getByText('Sign-in')).toBeInTheDocument();
    expect(within(table).getAllByText('Work: Иванов Иван — Математика, 7 класс')).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Audit trail' })).toBeInTheDocument();
  });

  it('is in the admin navigation', async () => {
    server();
    renderApp('/admin/audit');
    expect(await screen.findByRole('link', { name: 'Журнал действий' })).toHaveAttribute(
      'href',
      '/admin/audit',
    );
  });
});

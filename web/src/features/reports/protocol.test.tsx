import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, renderApp } from '../../test/test-app';
import {
  fileAnswer,
  lastQuery,
  people,
  pick,
  protocol,
  jsonOrFile,
  renderReports,
  reportsServer,
} from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('reports: the sitting protocol', { timeout: 20_000 }, () => {
  it('lets the organizator pick a diagnostic and a room, preview it and download the PDF', async () => {
    const createObjectURL = vi.fn(() => 'blob:protocol');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const api = reportsServer(people.organizator, {
      'GET /api/reports/diagnostic/protocol': jsonOrFile(protocol, () =>
        fileAnswer('protokol-7A.pdf', 50_000),
      ),
    });
    renderApp('/organizator');
    const nav = await screen.findByRole('navigation', { name: 'Разделы' });
    await userEvent.click(await within(nav).findByRole('link', { name: 'Протокол' }));
    expect(await screen.findByTestId('protocol-choose', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(api.callsTo('GET /api/reports/diagnostic/protocol')).toHaveLength(0);

    await pick('Диагностика', /Демонстрационная диагностика/);
    await pick('Класс', '7 «А»');
    const preview = await screen.findByTestId('protocol-preview');
    expect(lastQuery(api.callsTo('GET /api/reports/diagnostic/protocol'))).toEqual({
      diagnosticId: '5',
      classId: '11',
      format: 'json',
    });
    expect(preview).toHaveTextContent('Аудитория: Школа № 1, Корпус 1, ул. Ленина, 1, 7 «А»');
    expect(preview).toHaveTextContent('Организаторы: Волкова Ирина Сергеевна');
    expect(within(preview).getByTestId('protocol-presence')).toHaveTextContent(
      'Присутствовали: 1, отсутствовали: 1',
    );
    const participants = within(preview).getByTestId('protocol-participants');
    expect(participants).toHaveTextContent('Андреева Анна Ивановна');
    expect(participants).toHaveTextContent('присутствовал');
    expect(participants).toHaveTextContent('по истечении времени');
    expect(participants).toHaveTextContent('отсутствовал');
    expect(participants).not.toHaveTextContent('timeout');

    const pdf = screen.getByTestId('protocol-pdf');
    expect(pdf).toHaveAttribute(
      'href',
      '/api/reports/diagnostic/protocol?diagnosticId=5&classId=11&format=pdf',
    );
    await userEvent.click(pdf);
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(await screen.findByText('Файл «protokol-7A.pdf» сохранён')).toBeInTheDocument();
    expect(lastQuery(api.callsTo('GET /api/reports/diagnostic/protocol'))).toEqual({
      diagnosticId: '5',
      classId: '11',
      format: 'pdf',
    });

    // A whole building is a room too.
    await pick('Здание', 'Корпус 1');
    await waitFor(() =>
      expect(screen.getByTestId('protocol-pdf')).toHaveAttribute(
        'href',
        '/api/reports/diagnostic/protocol?diagnosticId=5&classId=11&buildingId=1&format=pdf',
      ),
    );
  });

  it('is a tab of the staff reports, for the chosen diagnostic and class, and shows refusals by code', async () => {
    reportsServer(people.coordinator, {
      'GET /api/reports/diagnostic/protocol': () => apiError(403, 'forbidden'),
    });
    await renderReports('/coordinator/reports?tab=protocol');
    expect(await screen.findByTestId('protocol-choose')).toHaveTextContent(
      'Выберите диагностику и класс или здание.',
    );
    await pick('Диагностика', /Демонстрационная диагностика/);
    await pick('Класс', '7 «Б»');
    expect(await screen.findByTestId('report-error')).toHaveTextContent('Этот отчёт вам недоступен');
    expect(screen.getByTestId('protocol-pdf')).toHaveAttribute(
      'href',
      '/api/reports/diagnostic/protocol?diagnosticId=5&classId=12&format=pdf',
    );
  });

  it('lists pauses, time changes and incidents with who acted by name and the server-noted connection and device events', async () => {
    const sitting = protocol.sittings[0]!;
    const withEvents = {
      ...protocol,
      sittings: [
        {
          ...sitting,
          pauses: [
            {
              participantTestId: 502,
              participantName: 'Андреева Анна Ивановна',
              startedAt: '2026-04-10T07:10:00.000Z',
              endedAt: '2026-04-10T07:15:00.000Z',
              byStaff: true,
              by: 'Волкова Ирина Сергеевна',
              resumedBy: 'Волкова Ирина Сергеевна',
              reason: 'Плохое самочувствие',
            },
          ],
          timeChanges: [
            {
              participantTestId: 502,
              participantName: 'Андреева Анна Ивановна',
              at: '2026-04-10T07:20:00.000Z',
              deltaSeconds: 600,
              by: 'Волкова Ирина Сергеевна',
              reason: 'Сбой',
            },
          ],
          incidents: [
            {
              participantTestId: 502,
              participantName: 'Андреева Анна Ивановна',
              kind: 'second_device',
              count: 1,
              firstAt: '2026-04-10T07:05:00.000Z',
              lastAt: '2026-04-10T07:05:00.000Z',
              reason: null,
            },
            {
              participantTestId: 502,
              participantName: 'Андреева Анна Ивановна',
              kind: 'connection_lost',
              count: 2,
              firstAt: '2026-04-10T07:25:00.000Z',
              lastAt: '2026-04-10T07:30:00.000Z',
              reason: null,
            },
          ],
        },
      ],
    };
    reportsServer(people.organizator, {
      'GET /api/reports/diagnostic/protocol': jsonOrFile(withEvents, () => fileAnswer('p.pdf', 10)),
    });
    await renderReports('/organizator/protocol?diagnosticId=5&classId=11');
    const events = await screen.findByTestId('protocol-events');
    const rows = within(events)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows.map((cells) => [cells[1], cells[3]])).toEqual([
      ['Попытка входа с другого устройства', '—'],
      ['Пауза', 'приостановил(а): Волкова Ирина Сергеевна; продолжил(а): Волкова Ирина Сергеевна'],
      ['Изменение времени: +10 мин', 'Волкова Ирина Сергеевна'],
      ['Потеря связи с сервером', '—'],
    ]);
    expect(rows[3]![2]).toContain('2 раз(а)');
    expect(events).not.toHaveTextContent(/second_device|connection_lost|reports\./);
  });

  it('speaks English to the organizator', async () => {
    reportsServer(people.organizator);
    const { i18n } = await renderReports('/organizator/protocol?diagnosticId=5&classId=11');
    await i18n.changeLanguage('en');
    expect(await screen.findByRole('heading', { name: 'Sitting protocol' })).toBeInTheDocument();
    expect(await screen.findByText('Present: 1, absent: 1')).toBeInTheDocument();
    expect(screen.getByText('the clock')).toBeInTheDocument();
    expect(screen.getByTestId('protocol-pdf')).toHaveTextContent('Download PDF');
  });
});

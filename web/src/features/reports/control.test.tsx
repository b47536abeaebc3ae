import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/test-app';
import { control, lastQuery, people, renderReports, reportsServer } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('reports: the control tab', { timeout: 20_000 }, () => {
  it('shows attendance, unfinished works and each kind of anomaly in words', async () => {
    const api = reportsServer(people.coordinator);
    await renderReports('/coordinator/reports?tab=control&diagnosticId=5');
    const attendance = await screen.findByTestId('control-attendance');
    const row = within(attendance).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Математика, 7 класс');
    expect(row).toHaveTextContent('7 «А»');
    expect(row).toHaveTextContent('10.04.2026');
    expect(row.querySelector('[data-stat="tookPart"]')).toHaveTextContent('4');
    expect(row.querySelector('[data-stat="unfinished"]')).toHaveTextContent('1');

    const unfinished = screen.getByTestId('control-unfinished');
    expect(unfinished).toHaveTextContent('Петров Пётр Петрович (R-0005)');
    expect(unfinished).toHaveTextContent('Пауза');
    expect(unfinished).toHaveTextContent('Школа № 1, 7 «А»');
    expect(unfinished).not.toHaveTextContent('paused');

    const fast = screen.getByTestId('anomaly-fast_finish');
    expect(fast).toHaveTextContent('Слишком быстрое завершение');
    expect(fast).toHaveTextContent('быстрее, чем за 10 % отведённого времени');
    expect(fast).toHaveTextContent(
      /Андреева Анна Ивановна \(R-0001\).*Работа заняла 3\sмин из 45\sмин \(7 %\)/,
    );

    const offline = screen.getByTestId('anomaly-offline_gap');
    expect(offline).toHaveTextContent('на 5 мин и дольше');
    expect(offline).toHaveTextContent(/Перерывов связи: 2, самый долгий — 7\sмин, всего — 12\sмин/);

    const leaves = screen.getByTestId('anomaly-integrity_events');
    expect(leaves).toHaveTextContent('3 раз и больше');
    expect(leaves).toHaveTextContent(
      'Уходов со страницы: 5 (уход из окна — 3, вкладка скрыта — 2, потеря связи — 2, восстановление связи — 2)',
    );

    const similar = screen.getByTestId('anomaly-similar_answers');
    expect(similar).toHaveTextContent('не меньше 75 % их общих ошибок');
    expect(similar).toHaveTextContent(
      'Обезличенный участник R-0003 — Математика, 7 класс, Школа № 1, 7 «А», 10.04.2026. С участником Васильева Вера Павловна (R-0004): одинаковых неверных ответов 4 из 5 общих ошибок; сравнено заданий: 10.',
    );
    expect(screen.queryByTestId('anomaly-proctoring')).not.toBeInTheDocument();
    // No raw kinds, no database ids.
    const anomalies = screen.getByTestId('control-anomalies');
    expect(anomalies).not.toHaveTextContent('fast_finish');
    expect(anomalies).not.toHaveTextContent('903');

    expect(lastQuery(api.callsTo('GET /api/reports/control'))).toEqual({ diagnosticId: '5' });
    expect(screen.getByTestId('control-xlsx')).toHaveAttribute(
      'href',
      '/api/reports/control?diagnosticId=5&format=xlsx',
    );
    expect(screen.getByTestId('control-pdf')).toHaveAttribute(
      'href',
      '/api/reports/control?diagnosticId=5&format=pdf',
    );
  });

  it('says when nothing is unusual, in English too', async () => {
    reportsServer(people.coordinator, {
      'GET /api/reports/control': () => json(200, { ...control, unfinished: [], anomalies: [] }),
    });
    const { i18n } = await renderReports('/coordinator/reports?tab=control');
    expect(await screen.findByText('Незавершённых работ нет.')).toBeInTheDocument();
    expect(screen.getByText('Необычных работ не найдено.')).toBeInTheDocument();
    await i18n.changeLanguage('en');
    expect(await screen.findByText('No unusual works found.')).toBeInTheDocument();
    expect(screen.getByText('Attendance')).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json } from '../../test/test-app';
import { itemAnalysisAnswer, lastQuery, people, pick, renderReports, reportsServer } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const text = (el: Element) => el.textContent!.replace(/\u00a0/g, ' ');

describe('reports: the item analysis tab', { timeout: 20_000 }, () => {
  it('asks for a diagnostic and a subject test first', async () => {
    const api = reportsServer(people.coordinator);
    await renderReports('/coordinator/reports?tab=items&diagnosticId=5');
    expect(await screen.findByTestId('items-choose')).toHaveTextContent(
      'Выберите диагностику и тест по предмету',
    );
    expect(api.callsTo('GET /api/reports/itemAnalysis')).toHaveLength(0);
  });

  it('shows the task statistics, flags in words, α, the plots, the Wright map and the variants', async () => {
    const api = reportsServer(people.admin);
    await renderReports('/admin/reports?tab=items&diagnosticId=5&subjectTestId=31');
    const table = await screen.findByTestId('items-table');
    expect(lastQuery(api.callsTo('GET /api/reports/itemAnalysis'))).toEqual({
      diagnosticId: '5',
      subjectTestId: '31',
    });

    const rows = within(table).getAllByTestId('items-row');
    // Tasks are named by their place in the variants, never by a database id.
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Задание 1',
      'Задание 2 (Вариант 1)',
      'Задание 2 (Вариант 2)',
      'Задание 3',
    ]);
    expect(table).not.toHaveTextContent('701');
    expect(text(rows[0]!.querySelector('[data-col="facility"]')!)).toBe('0,85');
    expect(text(rows[0]!.querySelector('[data-col="discrimination"]')!)).toBe('0,42');
    expect(rows[0]).toHaveTextContent('Выбор одного ответа');
    expect(text(rows[0]!)).toContain('-1,20 ± 0,30');
    expect(rows[1]).toHaveTextContent('сильные решают хуже слабых');
    expect(rows[1]).toHaveTextContent('не согласуется с моделью Раша');
    expect(rows[1]).not.toHaveTextContent('negative_discrimination');

    expect(screen.getByTestId('items-alpha')).toHaveTextContent('Надёжность (α Кронбаха): 0,78');
    expect(
      screen.getByText(/Модель Раша: варианты связаны общими заданиями; оценено по 36 участникам\./),
    ).toBeInTheDocument();

    expect(within(screen.getByTestId('items-scatter')).getByRole('img')).toHaveAccessibleName(
      /Задание 1 — 0,85; 0,42; Задание 2 \(Вариант 1\) — 0,30; -0,15/,
    );
    const wright = screen.getByTestId('items-wright');
    const bins = within(wright).getAllByTestId('wright-bin');
    expect(bins).toHaveLength(6);
    // Hardest on top: the 1–1,5 logit bin holds task 2 of variant 1 and two participants.
    expect(bins[0]).toHaveTextContent('Задание 2 (Вариант 1)');
    expect(bins[0]).toHaveTextContent('2');
    expect(bins.at(-1)).toHaveTextContent('Задание 1');
    expect(within(wright).getByRole('img')).toHaveAccessibleName(
      /от 0,0 до 0,5 логита — участников: 10; Задание 2 \(Вариант 2\), Задание 3/,
    );

    const variants = screen.getByTestId('items-variants');
    expect(
      within(variants)
        .getAllByRole('row')
        .map((r) => text(r)),
    ).toEqual([
      'ВариантУчастниковМакс.Средний баллСт. откл.αСредняя трудность',
      'Вариант 12042,401,100,76-0,20',
      'Вариант 22042,101,200,800,30',
    ]);
    expect(within(screen.getByTestId('items-curves')).getByRole('img')).toHaveAccessibleName(
      /Вариант 1 — -0,20; Вариант 2 — 0,30/,
    );
    expect(within(screen.getByTestId('items-totals')).getByRole('img')).toHaveAccessibleName(
      /Гистограмма первичных баллов варианта 1: 0 — 1, 2 — 10, 4 — 9/,
    );

    // Enough participants (40): no warning that the figures are unreliable.
    expect(screen.queryByTestId('items-few')).not.toBeInTheDocument();

    // One task in detail: its scores, and who chose which answer (options by their text and
    // number, never by id; an option without text, a picture, by its number).
    const detail = screen.getByTestId('items-detail');
    expect(within(detail).getByRole('img')).toHaveAccessibleName(
      'Баллы за задание: Задание 1: 0 — 6, 1 — 34',
    );
    const distractors = within(detail).getByTestId('items-distractors');
    expect(
      within(distractors)
        .getAllByRole('row')
        .map((r) => text(r)),
    ).toEqual([
      'ОтветВыбралиСильныеСлабые',
      'Вариант ответа 1: «x^2 < 0»10 %0 %25 %',
      'Вариант ответа 2: «x^2 ≥ 0 при любом x» — верный85 %100 %60 %',
      'Вариант ответа 35 %0 %15 %',
      'Без ответа0 %',
    ]);
    expect(distractors).not.toHaveTextContent('o2');
    await pick('Задание', 'Задание 3', detail);
    await waitFor(() => expect(within(detail).queryByTestId('items-distractors')).not.toBeInTheDocument());
    expect(within(detail).getByRole('img')).toHaveAccessibleName(
      'Баллы за задание: Задание 3: 0 — 10, 1 — 14, 2 — 16',
    );
  });

  it('warns that the figures are unreliable below 30 participants, not at 30', async () => {
    let participants = 29;
    reportsServer(people.admin, {
      'GET /api/reports/itemAnalysis': () => json(200, { ...itemAnalysisAnswer, participants }),
    });
    const first = await renderReports('/admin/reports?tab=items&diagnosticId=5&subjectTestId=31');
    const few = await screen.findByTestId('items-few');
    expect(few).toHaveAttribute('role', 'alert');
    expect(few).toHaveTextContent('Мало участников: показатели ненадёжны');
    expect(few).toHaveTextContent(
      'Проанализировано результатов: 29, а для надёжных выводов нужно не меньше 30.',
    );
    first.unmount();

    participants = 30;
    await renderReports('/admin/reports?tab=items&diagnosticId=5&subjectTestId=31');
    await screen.findByTestId('items-table');
    expect(screen.queryByTestId('items-few')).not.toBeInTheDocument();
  });

  it('says in words why the statistics are withheld', async () => {
    reportsServer(people.coordinator, {
      'GET /api/reports/itemAnalysis': () =>
        json(200, {
          ...itemAnalysisAnswer,
          withheld: true,
          reason: 'awaiting_grading',
          message: 'expert grading is not finished',
          alpha: null,
          variants: [],
          tasks: [],
          rasch: null,
        }),
    });
    const { i18n } = await renderReports('/coordinator/reports?tab=items&diagnosticId=5&subjectTestId=31');
    const withheld = await screen.findByTestId('items-withheld');
    expect(withheld).toHaveTextContent('Статистика пока не показывается');
    expect(withheld).toHaveTextContent('Эксперты ещё проверяют работы этого теста');
    expect(withheld).not.toHaveTextContent('expert grading is not finished');
    await i18n.changeLanguage('en');
    expect(await screen.findByText(/Experts are still grading works of this test/)).toBeInTheDocument();
  });

  it('shows a refusal by its code', async () => {
    reportsServer(people.coordinator, {
      'GET /api/reports/itemAnalysis': () => apiError(403, 'forbidden'),
    });
    await renderReports('/coordinator/reports?tab=items&diagnosticId=5&subjectTestId=31');
    expect(await screen.findByTestId('report-error')).toHaveTextContent('Этот отчёт вам недоступен');
  });
});

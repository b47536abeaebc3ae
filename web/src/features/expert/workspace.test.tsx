import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';
import { scoreOptions } from './lib/marks';
import {
  applyView,
  clampPage,
  fitScale,
  INITIAL_VIEW,
  rotate,
  transformOf,
  viewerAction,
  zoomIn,
  zoomOut,
} from './lib/viewer';

// pdf.js needs a real canvas and worker: the viewer is tested against a stand-in document.
const pdf = vi.hoisted(() => ({
  render: vi.fn(async (_page: number, _canvas: HTMLCanvasElement, _scale: number, _rotation: number) => {}),
  opened: 0,
}));
vi.mock('./lib/pdf', () => ({
  openPdf: vi.fn(async () => {
    pdf.opened++;
    return {
      numPages: 3,
      pageSize: async () => ({ width: 600, height: 800 }),
      render: pdf.render,
      destroy: () => {},
    };
  }),
}));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  pdf.render.mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const expertUser = { id: 4, login: 'expert', displayName: 'Смирнова Ольга', roles: ['expert'] };
const criteria = [
  { code: 'К1', text: 'Тезис сформулирован', maxScore: 2, step: 1 },
  { code: 'К2', text: 'Аргументы приведены', maxScore: 3, step: 0.5 },
];
const files = {
  image: { id: 7, name: 'file-1.jpg', mime: 'image/jpeg', size: 8 },
  pdf: { id: 8, name: 'file-2.pdf', mime: 'application/pdf', size: 9 },
};

function assignment(
  id: number,
  options: {
    round?: number;
    files?: object[];
    disagreement?: object | null;
    answerType?: string;
    value?: unknown;
    reference?: unknown;
  } = {},
) {
  return {
    id,
    anonCode: `A-${id}`,
    round: options.round ?? 1,
    status: 'assigned',
    editable: true,
    subjectTestId: 31,
    subjectTestName: 'Русский язык, 9 класс',
    subjectName: 'Русский язык',
    workDate: '2026-04-10',
    task: {
      position: 5,
      answerType: options.answerType ?? 'extended_text',
      html: '<p>Напишите сочинение-рассуждение.</p>',
      criteria,
      maxScore: 5,
      solutionHtml: '<p>Указания к оцениванию</p>',
      reference: 'reference' in options ? options.reference : 'Эталон: тезис и два аргумента',
    },
    answer: {
      value: 'value' in options ? options.value : 'Мой ответ на задание',
      files: options.files ?? [],
    },
    marks: null,
    total: null,
    comment: null,
    gradedAt: null,
    disagreement: options.disagreement ?? null,
  };
}

const disagreement = {
  criteria: [
    { criterionCode: 'К1', expert1: 2, expert2: 0, difference: 2 },
    { criterionCode: 'К2', expert1: 2.5, expert2: 2.5, difference: 0 },
  ],
  totals: { expert1: 4.5, expert2: 2.5, difference: 2 },
  threshold: 1,
};

function serve(next: () => Response, extra: Record<string, () => Response> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, expertUser),
    'GET /api/expert/queue': () => json(200, { items: [] }),
    'GET /api/ParticipantTest/getExpertAnswersDates': () => json(200, { dates: [] }),
    'GET /api/expert/next': next,
    ...extra,
  });
}
const once = (a: object) => () => json(200, { assignment: a, progress: { done: 0, total: 3 } });

describe('viewer arithmetic', () => {
  it('steps zoom, turns in quarters, fits the width, pans and clamps pages', () => {
    expect(zoomIn(1)).toBe(1.1);
    expect(zoomOut(1)).toBe(0.9);
    expect(zoomIn(0.8)).toBe(0.9);
    expect(zoomIn(5)).toBe(5);
    expect(zoomOut(0.25)).toBe(0.25);
    expect(rotate(0, 1)).toBe(90);
    expect(rotate(0, -1)).toBe(270);
    expect(rotate(270, 1)).toBe(0);
    // A 2000 × 1000 scan in a 500 px pane: a quarter; turned, its height (1000) must fit: a half.
    expect(fitScale(2000, 1000, 0, 500)).toBe(0.25);
    expect(fitScale(2000, 1000, 90, 500)).toBe(0.5);
    // Small pictures are not blown up; unknown sizes keep 100 %.
    expect(fitScale(200, 100, 0, 500)).toBe(1);
    expect(fitScale(0, 0, 0, 500)).toBe(1);
    const zoomed = applyView(INITIAL_VIEW, 'zoomIn', 0.25);
    expect(zoomed).toMatchObject({ fit: false, zoom: 0.33 });
    const turned = applyView({ ...zoomed, panX: 40 }, 'rotateRight', 0.25);
    expect(turned).toMatchObject({ rotation: 90, panX: 0, zoom: 0.33 });
    expect(applyView(turned, 'panRight', 1).panX).toBe(-60);
    expect(applyView(turned, 'fit', 1)).toMatchObject({ fit: true, panX: 0, panY: 0 });
    expect(applyView(turned, 'actual', 0.25)).toMatchObject({ fit: false, zoom: 1 });
    expect(transformOf({ ...INITIAL_VIEW, rotation: 90, panX: 5 }, 1.5)).toBe(
      'translate(-50%, -50%) translate(5px, 0px) rotate(90deg) scale(1.5)',
    );
    expect(clampPage(0, 3)).toBe(1);
    expect(clampPage(7, 3)).toBe(3);
    expect(clampPage(Number('x'), 3)).toBe(1);
    expect(clampPage(2, 0)).toBe(1);
    expect(viewerAction({ key: '+' })).toBe('zoomIn');
    expect(viewerAction({ key: 'r', shiftKey: true })).toBe('rotateLeft');
    expect(viewerAction({ key: 'PageDown' })).toBe('nextPage');
    // Digits belong to the rubric.
    expect(viewerAction({ key: '1' })).toBeNull();
    expect(scoreOptions(3, 0.5)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3]);
    expect(scoreOptions(20, 1)).toBeNull();
  });
});

describe('grading workspace', () => {
  it('puts task, answer and rubric side by side on a wide screen; the task pane can be hidden', async () => {
    serve(once(assignment(41)));
    renderApp('/expert/grading');
    const layout = await screen.findByTestId('grading-answer', {}, { timeout: 5000 });
    expect(layout).toHaveAttribute('data-layout', 'wide');
    const task = screen.getByTestId('grading-task-pane');
    const answer = screen.getByTestId('grading-answer-pane');
    const rubric = screen.getByTestId('grading-rubric-pane');
    expect(within(task).getByText('Напишите сочинение-рассуждение.')).toBeInTheDocument();
    expect(within(task).getByText('Эталон: тезис и два аргумента')).toBeInTheDocument();
    expect(within(task).getByText('Указания к оцениванию')).toBeInTheDocument();
    expect(within(answer).getByText('Мой ответ на задание')).toBeInTheDocument();
    expect(within(rubric).getByTestId('criterion-К1')).toBeInTheDocument();
    expect(within(rubric).getByTestId('grading-submit')).toBeInTheDocument();
    // Three panes of one grid, not one column.
    expect(task.parentElement).toBe(answer.parentElement);
    expect(rubric.parentElement).toBe(answer.parentElement);
    expect(task.parentElement).toHaveClass('grading-workspace');

    const toggle = screen.getByRole('button', { name: 'Скрыть задание' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(toggle);
    expect(screen.queryByTestId('grading-task-pane')).not.toBeInTheDocument();
    expect(screen.getByTestId('grading-answer-pane')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Показать задание' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  // Issue 23, item 6: a file answer is shown as its attachments by name, never as `{"fileIds":[…]}`.
  it('shows a file answer as its attachments by name, never its stored value', async () => {
    const scan = { id: 9, name: 'file-1.docx', mime: 'application/msword', size: 12 };
    serve(
      once(
        assignment(41, {
          answerType: 'file',
          value: { fileIds: [9] },
          files: [scan],
          reference: { some: 'object' },
        }),
      ),
    );
    renderApp('/expert/grading');
    const pane = await screen.findByTestId('grading-answer-pane', {}, { timeout: 5000 });
    expect(within(pane).getByTestId('attachment-download-9')).toHaveTextContent('Скачать file-1.docx');
    expect(within(pane).queryByTestId('grading-answer-text')).toBeNull();
    expect(within(pane).queryByText('Ответ не дан')).toBeNull();
    const layout = screen.getByTestId('grading-answer');
    expect(layout).not.toHaveTextContent('fileIds');
    expect(layout).not.toHaveTextContent('{');
  });

  it('reads a composite answer as its written parts, without ids or JSON', async () => {
    serve(
      once(
        assignment(41, {
          answerType: 'composite',
          value: { p1: 'Первая часть', p2: { fileIds: [3] }, p3: ['а', 'б'] },
          reference: null,
        }),
      ),
    );
    renderApp('/expert/grading');
    const text = await screen.findByTestId('grading-answer-text', {}, { timeout: 5000 });
    expect(text.textContent).toBe('Первая часть\n\nа\n\nб');
    expect(screen.queryByText('Эталонный ответ')).toBeNull();
  });

  it('stacks task and answer as tabs on a narrow screen, the rubric below', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({
        matches: query.includes('max-width'),
        media: query,
        onchange: null,
        addListener: vi.fn(),
        removeListener: vi.fn(),
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
        dispatchEvent: vi.fn(),
      })),
    );
    serve(once(assignment(41)));
    renderApp('/expert/grading');
    await waitFor(
      () => expect(screen.getByTestId('grading-answer')).toHaveAttribute('data-layout', 'narrow'),
      { timeout: 5000 },
    );
    expect(screen.getByRole('tab', { name: 'Ответ' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(screen.getByRole('tab', { name: 'Задание' }));
    expect(screen.getByRole('tab', { name: 'Задание' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Напишите сочинение-рассуждение.')).toBeVisible();
    expect(screen.getByTestId('criterion-К1')).toBeInTheDocument();
    expect(screen.queryByTestId('grading-toggle-task')).not.toBeInTheDocument();
  });

  it('marks by keyboard without moving the answer: digit, arrows, Ctrl+Enter saves and opens the next', async () => {
    let served = 0;
    const server = serve(
      () =>
        json(200, {
          assignment: served++ === 0 ? assignment(41) : assignment(42),
          progress: { done: served - 1, total: 3 },
        }),
      { 'POST /api/expert/assignment/41/marks': () => json(200, { ...assignment(41), status: 'graded' }) },
    );
    const scrolled = vi.fn();
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(scrolled);
    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    renderApp('/expert/grading');
    const k1 = await screen.findByTestId('criterion-К1', {}, { timeout: 5000 });
    const k2 = screen.getByTestId('criterion-К2');
    await waitFor(() => expect(k1).toHaveFocus());

    // The expert scrolled the answer and clicked into it: keys mark, the answer stays put.
    const pane = screen.getByTestId('grading-answer-pane');
    pane.scrollTop = 240;
    act(() => pane.focus());
    fireEvent.keyDown(pane, { key: '2' });
    expect(k1).toHaveValue('2');
    expect(k1).toHaveFocus();
    expect(screen.getByTestId('quick-К1-2')).toHaveAttribute('aria-pressed', 'true');
    fireEvent.keyDown(k1, { key: 'ArrowDown' });
    expect(k2).toHaveFocus();
    expect(screen.getByTestId('criterion-row-К2')).toHaveAttribute('data-active', 'true');
    fireEvent.keyDown(k2, { key: 'ArrowUp' });
    expect(k1).toHaveFocus();
    fireEvent.keyDown(k1, { key: 'ArrowDown' });
    // A quick score button does what typing does.
    await userEvent.click(screen.getByRole('button', { name: 'К2: поставить 1,5' }));
    expect(k2).toHaveValue('1,5');
    expect(k2).toHaveFocus();
    expect(screen.getByTestId('grading-total')).toHaveTextContent('Итого: 3,5 из 5');
    // Every move of the focus asked not to scroll, and nothing was scrolled into view.
    const moves = focus.mock.calls.filter(
      (_, i) => (focus.mock.contexts[i] as HTMLElement | undefined)?.dataset.criterion,
    );
    expect(moves.length).toBeGreaterThan(2);
    for (const [options] of moves) expect(options).toEqual({ preventScroll: true });
    expect(scrolled).not.toHaveBeenCalled();
    expect(pane.scrollTop).toBe(240);

    fireEvent.keyDown(k2, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(server.callsTo('POST /api/expert/assignment/41/marks')).toHaveLength(1));
    expect(server.callsTo('POST /api/expert/assignment/41/marks')[0]!.body).toEqual({
      marks: [
        { criterionCode: 'К1', score: 2 },
        { criterionCode: 'К2', score: 1.5 },
      ],
    });
    expect(await screen.findByText('Работа A-42 · задание 5')).toBeInTheDocument();
    expect(screen.getByTestId('criterion-К1')).toHaveValue('');
  });

  it('shows the keys on ? and by its labelled button', async () => {
    serve(once(assignment(41)));
    renderApp('/expert/grading');
    await screen.findByTestId('criterion-К1', {}, { timeout: 5000 });
    const button = screen.getByRole('button', { name: 'Клавиши (?)' });
    fireEvent.keyDown(document.body, { key: '?' });
    expect(await screen.findByTestId('grading-keys-help')).toHaveTextContent(
      'сохранить и перейти к следующему ответу',
    );
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('zooms, rotates and pans an image by buttons and keys', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:scan'), revokeObjectURL: vi.fn() }),
    );
    serve(once(assignment(41, { files: [files.image] })), {
      'GET /api/files/7': () =>
        new Response(new Uint8Array([0xff, 0xd8, 0xff]), { headers: { 'content-type': 'image/jpeg' } }),
    });
    renderApp('/expert/grading');
    const image = await screen.findByTestId('image-7', {}, { timeout: 5000 });
    expect(image).toHaveAttribute('alt', 'file-1.jpg');
    const transform = () => image.style.transform;
    expect(transform()).toContain('rotate(0deg) scale(1)');

    await userEvent.click(screen.getByRole('button', { name: 'Увеличить' }));
    expect(transform()).toContain('scale(1.1)');
    expect(screen.getByTestId('image-7-zoom')).toHaveTextContent('110 %');
    await userEvent.click(screen.getByRole('button', { name: 'Повернуть по часовой стрелке' }));
    expect(transform()).toContain('rotate(90deg)');
    await userEvent.click(screen.getByRole('button', { name: 'Повернуть против часовой стрелки' }));
    await userEvent.click(screen.getByRole('button', { name: 'Повернуть против часовой стрелки' }));
    expect(transform()).toContain('rotate(270deg)');
    await userEvent.click(screen.getByRole('button', { name: 'Уменьшить' }));
    expect(transform()).toContain('scale(1)');

    const stage = screen.getByTestId('image-7-stage');
    expect(stage).toHaveAttribute('tabindex', '0');
    fireEvent.keyDown(stage, { key: '+' });
    fireEvent.keyDown(stage, { key: '+' });
    expect(transform()).toContain('scale(1.25)');
    fireEvent.keyDown(stage, { key: '-' });
    expect(transform()).toContain('scale(1.1)');
    fireEvent.keyDown(stage, { key: 'r' });
    expect(transform()).toContain('rotate(0deg)');
    fireEvent.keyDown(stage, { key: 'ArrowLeft' });
    expect(transform()).toContain('translate(60px, 0px)');
    fireEvent.keyDown(stage, { key: 'a' });
    expect(transform()).toContain('scale(1)');
    expect(screen.getByRole('button', { name: 'Исходный размер, 100 %' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(screen.getByRole('button', { name: 'По ширине панели' }));
    expect(transform()).toContain('translate(0px, 0px)');
    expect(screen.getByRole('button', { name: 'По ширине панели' })).toHaveAttribute('aria-pressed', 'true');
    // Drag pans.
    fireEvent.pointerDown(stage, { button: 0, clientX: 100, clientY: 100, pointerId: 1 });
    fireEvent.pointerMove(stage, { clientX: 130, clientY: 80, pointerId: 1 });
    fireEvent.pointerUp(stage, { pointerId: 1 });
    expect(transform()).toContain('translate(30px, -20px)');
    // A digit in the viewer scores the current criterion, it does not zoom.
    fireEvent.keyDown(stage, { key: '1' });
    expect(screen.getByTestId('criterion-К1')).toHaveValue('1');
    // No unlabelled button anywhere in the workspace.
    for (const button of within(screen.getByTestId('grading-answer')).getAllByRole('button'))
      expect(button).toHaveAccessibleName();
  });

  it('pages through a PDF: previous / next, a typed page, Page Down', async () => {
    serve(once(assignment(41, { files: [files.pdf] })), {
      'GET /api/files/8': () =>
        new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
          headers: { 'content-type': 'application/pdf' },
        }),
    });
    renderApp('/expert/grading');
    const pages = await screen.findByTestId('pdf-8-pages', {}, { timeout: 5000 });
    expect(pages).toHaveTextContent('из 3');
    const lastPage = () => pdf.render.mock.calls.at(-1)?.[0];
    await waitFor(() => expect(lastPage()).toBe(1));
    const prev = screen.getByRole('button', { name: 'Предыдущая страница' });
    const next = screen.getByRole('button', { name: 'Следующая страница' });
    expect(prev).toBeDisabled();
    await userEvent.click(next);
    await waitFor(() => expect(lastPage()).toBe(2));
    expect(screen.getByTestId('pdf-8-page')).toHaveValue('2');
    const page = screen.getByRole('textbox', { name: 'Номер страницы (всего 3)' });
    await userEvent.clear(page);
    await userEvent.type(page, '9{Enter}');
    await waitFor(() => expect(lastPage()).toBe(3));
    expect(page).toHaveValue('3');
    expect(next).toBeDisabled();
    // Typing into the page field marks nothing.
    expect(screen.getByTestId('criterion-К1')).toHaveValue('');
    const stage = screen.getByTestId('pdf-8-stage');
    fireEvent.keyDown(stage, { key: 'PageUp' });
    await waitFor(() => expect(lastPage()).toBe(2));
    fireEvent.keyDown(stage, { key: 'r' });
    await waitFor(() => expect(pdf.render.mock.calls.at(-1)?.[3]).toBe(90));
    fireEvent.keyDown(stage, { key: '+' });
    await waitFor(() => expect(pdf.render.mock.calls.at(-1)?.[2]).toBe(1.1));
    expect(screen.getByTestId('pdf-8-zoom')).toHaveTextContent('110 %');
  });

  it('shows a third check where the first two disagreed, as Эксперт 1 / Эксперт 2', async () => {
    serve(once(assignment(42, { round: 3, disagreement })));
    renderApp('/expert/grading');
    const summary = await screen.findByTestId('disagreement-summary', {}, { timeout: 5000 });
    expect(screen.getByTestId('grading-third-check')).toBeInTheDocument();
    expect(within(summary).getByRole('columnheader', { name: 'Эксперт 1' })).toBeInTheDocument();
    expect(within(summary).getByRole('columnheader', { name: 'Эксперт 2' })).toBeInTheDocument();
    const k1 = within(screen.getByTestId('disagreement-К1'))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(k1).toEqual(['К1', '2', '0', '2']);
    expect(screen.getByTestId('disagreement-К2')).not.toHaveAttribute('data-differs');
    expect(screen.getByTestId('disagreement-К1')).toHaveAttribute('data-differs', 'true');
    expect(screen.getByTestId('disagreement-total')).toHaveTextContent('Итого4,52,52');
    expect(screen.getByTestId('disagreement-threshold')).toHaveTextContent('больше чем на 1');
    // Next to each criterion as well, where the third expert scores it.
    expect(screen.getByTestId('criterion-row-К2')).toHaveTextContent('Эксперт 1: 2,5, Эксперт 2: 2,5');
  });

  it('shows no summary on rounds 1 and 2', async () => {
    serve(once(assignment(41, { round: 2 })));
    renderApp('/expert/grading');
    await screen.findByTestId('criterion-К1', {}, { timeout: 5000 });
    expect(screen.queryByTestId('disagreement-summary')).not.toBeInTheDocument();
    expect(screen.queryByText('Эксперт 1')).not.toBeInTheDocument();
  });
});

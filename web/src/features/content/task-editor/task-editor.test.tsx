import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { AppProviders, apiError, fakeServer, json, type Handler } from '../../../test/test-app';
import { TaskEditorPage, type TaskEditorPageProps } from './index';

// jsdom has no layout: ProseMirror asks for rectangles when it scrolls the caret into view.
beforeAll(async () => {
  // A big form renders slowly in jsdom on a busy machine: wait longer than the default second.
  configure({ asyncUtilTimeout: 5000 });
  // The page loads lazily; loaded once here, it renders at once in each test.
  await import('./components/task-editor-page');
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
    });
  const rect = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
  Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
  document.elementFromPoint ??= () => null;
});

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const TASKS = '/api/admin/content/tasks';

function task(extra: Record<string, unknown> = {}) {
  return {
    id: 42,
    answerType: 'single_choice',
    html: '<p>Столица России?</p>',
    content: {
      options: [
        { id: 'o1', html: 'Москва' },
        { id: 'o2', html: 'Казань' },
      ],
      shuffle: false,
    },
    reference: { correct: 'o1' },
    scoring: { method: 'all_or_nothing' },
    maxScore: 1,
    solutionHtml: null,
    criteria: null,
    htmlContainerId: null,
    subjectId: 7,
    category: null,
    title: null,
    sourceId: null,
    sourceFormat: null,
    version: 1,
    previousVersionId: null,
    supersededAt: null,
    elementIds: [],
    files: [],
    usedByWorks: false,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: null,
    ...extra,
  };
}

const specification = {
  id: 3,
  name: 'Кодификатор по географии',
  subjectId: 7,
  parallel: 9,
  description: null,
  elementCount: 2,
  elements: [
    { id: 31, code: '1', name: 'Природа России', kind: 'content', parentId: null, position: 0, depth: 0 },
    { id: 32, code: '1.1', name: 'Столицы и города', kind: 'content', parentId: 31, position: 0, depth: 1 },
  ],
};

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/admin/content/specifications': () =>
      json(200, [
        { id: 3, name: specification.name, subjectId: 7, parallel: 9, description: null, elementCount: 2 },
      ]),
    'GET /api/admin/content/specifications/3': () => json(200, specification),
    ...extra,
  });
}

function renderEditor(props: TaskEditorPageProps) {
  const queryClient = createQueryClient();
  const i18n = createI18n('ru');
  return render(
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <MemoryRouter>
        <TaskEditorPage {...props} />
      </MemoryRouter>
    </AppProviders>,
  );
}

/** Types the task text as html (the editor's source view). */
async function typeHtml(html: string, field = 'Текст задания') {
  const user = userEvent.setup();
  const wrapper = screen.getByTestId(field === 'Текст задания' ? 'task-html' : 'solution-html');
  await user.click(within(wrapper).getByRole('button', { name: 'HTML-код' }));
  const source = within(wrapper).getByRole('textbox', { name: `${field}: HTML-код` });
  fireEvent.change(source, { target: { value: html } });
  return source;
}

/** Types a whole value at once (a change event: one render, not one per key). */
function fill(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } });
}

/** Opens a Mantine select and picks an option of its own list (found by `aria-controls`). */
async function pick(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, option: string) {
  await user.click(input);
  const listbox = await waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '')!);
  await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

describe('task editor', { timeout: 60_000 }, () => {
  it('creates a single-choice task through the form and sends the task model', async () => {
    const user = userEvent.setup();
    const api = server({ [`POST ${TASKS}`]: () => json(200, task({ id: 50 })) });
    renderEditor({ subjectId: 7 });
    expect(await screen.findByRole('heading', { name: 'Новое задание' })).toBeInTheDocument();

    await typeHtml('<p>Столица России?</p>');
    const options = screen.getByTestId('options');
    await user.type(within(options).getByRole('textbox', { name: 'Вариант 1' }), 'Москва');
    fill(within(options).getByRole('textbox', { name: 'Вариант 2' }), 'Казань');
    fill(within(options).getByRole('textbox', { name: 'Вариант 3' }), 'Самара');
    await user.click(within(options).getByRole('button', { name: 'Удалить: Вариант 4' }));
    await user.click(within(options).getByRole('radio', { name: 'Вариант 2 верный' }));
    // The right answer moves to the top; its id goes with it.
    await user.click(within(options).getByRole('button', { name: 'Выше: Вариант 2' }));
    await user.click(screen.getByRole('checkbox', { name: /Перемешивать/ }));
    fill(screen.getByRole('textbox', { name: /Название/ }), 'Столица');
    await user.click(await screen.findByRole('checkbox', { name: /Столицы и города/ }));

    await user.click(screen.getByTestId('save-task'));
    expect(await screen.findByText('Задание создано.')).toBeInTheDocument();
    expect(api.callsTo(`POST ${TASKS}`)).toHaveLength(1);
    expect(api.callsTo(`POST ${TASKS}`)[0]!.body).toEqual({
      subjectId: 7,
      elementIds: [32],
      html: '<p>Столица России?</p>',
      solutionHtml: null,
      title: 'Столица',
      category: null,
      answerType: 'single_choice',
      content: {
        options: [
          { id: 'o2', html: 'Казань' },
          { id: 'o1', html: 'Москва' },
          { id: 'o3', html: 'Самара' },
        ],
        shuffle: true,
      },
      reference: { correct: 'o2' },
      scoring: { method: 'all_or_nothing' },
      maxScore: 1,
      criteria: null,
    });
  });

  it('moves to the new task’s address after creating it and still says it was created', async () => {
    const user = userEvent.setup();
    const created = task({
      id: 50,
      html: '<p>Сколько будет 2 + 2?</p>',
      answerType: 'number',
      content: {},
      reference: { value: 4, tolerance: 0, toleranceMode: 'absolute' },
    });
    const api = server({
      [`POST ${TASKS}`]: () => json(200, created),
      [`GET ${TASKS}/50`]: () => json(200, created),
    });
    function Page() {
      const navigate = useNavigate();
      const location = useLocation();
      return (
        <>
          <output data-testid="address">{location.pathname}</output>
          <TaskEditorPage onSaved={(saved) => void navigate(`/tasks/${saved.id}`)} />
        </>
      );
    }
    render(
      <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
        <MemoryRouter initialEntries={['/tasks/new?subjectId=7']}>
          <Routes>
            <Route path="/tasks/new" element={<Page />} />
            <Route path="/tasks/:taskId" element={<Page />} />
          </Routes>
        </MemoryRouter>
      </AppProviders>,
    );
    await screen.findByRole('heading', { name: 'Новое задание' });
    await pick(user, screen.getByRole('combobox', { name: 'Вид ответа' }), 'Число');
    await user.click(await screen.findByTestId('confirm-type'));
    await typeHtml('<p>Сколько будет 2 + 2?</p>');
    fill(within(screen.getByTestId('number-key')).getByRole('textbox', { name: 'Число' }), '4');
    await user.click(screen.getByTestId('save-task'));

    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/tasks/50'));
    // The editor of the new address shows the saved task (already known, not read again) and the outcome.
    expect(await screen.findByText('Задание создано.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Задание' })).toBeInTheDocument();
    expect(api.callsTo(`GET ${TASKS}/50`)).toHaveLength(0);
    expect(api.callsTo(`POST ${TASKS}`)[0]!.body).toMatchObject({
      subjectId: 7,
      answerType: 'number',
      content: {},
      reference: { value: 4, tolerance: 0, toleranceMode: 'absolute' },
      scoring: { method: 'all_or_nothing' },
    });
  });

  it('names every problem in words next to its field and sends nothing', async () => {
    const user = userEvent.setup();
    const api = server();
    renderEditor({ subjectId: 7 });
    await screen.findByRole('heading', { name: 'Новое задание' });
    const maxScore = screen.getByRole('textbox', { name: /Максимальный балл/ });
    await user.clear(maxScore);
    await user.click(screen.getByTestId('save-task'));

    const problems = await screen.findByTestId('problems');
    expect(within(problems).getByText('Текст задания: Напишите текст задания.')).toBeInTheDocument();
    expect(within(problems).getByText('Вариант 1: Заполните поле.')).toBeInTheDocument();
    expect(within(problems).getByText('Верный ответ: Отметьте верный вариант.')).toBeInTheDocument();
    expect(within(problems).getByText('Максимальный балл: Заполните поле.')).toBeInTheDocument();
    // The same words stand by the fields.
    expect(within(screen.getByTestId('options')).getAllByText('Заполните поле.')).toHaveLength(4);
    expect(screen.getByText('Отметьте верный вариант.')).toBeInTheDocument();
    expect(problems.textContent).not.toMatch(/content|reference|option id|too_small/);
    expect(api.callsTo(`POST ${TASKS}`)).toHaveLength(0);

    // Fixing a field takes its problem away at once.
    await user.type(maxScore, '2');
    await waitFor(() =>
      expect(within(screen.getByTestId('problems')).queryByText(/Максимальный балл/)).not.toBeInTheDocument(),
    );
  });

  it('edits a cloze: a new gap is marked in the text, a drop-down key is kept, a new version is named', async () => {
    const user = userEvent.setup();
    const cloze = task({
      answerType: 'cloze',
      html: '<p>Столица России — {{g1}}.</p>',
      content: { blanks: [{ id: 'g1', kind: 'text' }] },
      reference: { blanks: { g1: ['Москва'] } },
      scoring: { method: 'all_or_nothing', caseSensitive: false, distinguishYo: false, wildcards: false },
      usedByWorks: true,
    });
    const api = server({
      [`GET ${TASKS}/42`]: () => json(200, cloze),
      [`PUT ${TASKS}/42`]: ({ body }) =>
        json(200, {
          ...cloze,
          ...(body as object),
          id: 43,
          version: 2,
          previousVersionId: 42,
          usedByWorks: false,
        }),
    });
    renderEditor({ taskId: 42 });
    expect(await screen.findByText(/при сохранении будет создана его новая версия/)).toBeInTheDocument();
    const blanks = screen.getByTestId('blanks');
    expect(within(screen.getByTestId('blank-1')).getByText('есть в тексте')).toBeInTheDocument();

    // In the source view the mark goes where the caret is.
    const typed = '<p>Столица России — {{g1}}, Татарстана — .</p>';
    const source = await typeHtml(typed);
    (source as HTMLTextAreaElement).setSelectionRange(typed.indexOf('.</p>'), typed.indexOf('.</p>'));
    await user.click(within(blanks).getByTestId('add-blank'));
    expect(source).toHaveValue('<p>Столица России — {{g1}}, Татарстана — {{g2}}.</p>');
    const second = screen.getByTestId('blank-2');
    expect(within(second).getByText('есть в тексте')).toBeInTheDocument();

    await pick(user, within(second).getByRole('combobox', { name: 'Вид пропуска' }), 'Выбрать из списка');
    fill(within(second).getByRole('textbox', { name: 'Пропуск 2: вариант 1' }), 'Уфа');
    fill(within(second).getByRole('textbox', { name: 'Пропуск 2: вариант 2' }), 'Казань');
    await user.click(within(second).getByRole('checkbox', { name: 'Пропуск 2: вариант 2 верный' }));
    await user.click(screen.getByTestId('save-task'));

    expect(await screen.findByText(/Создана версия 2/)).toBeInTheDocument();
    const body = api.callsTo(`PUT ${TASKS}/42`)[0]!.body as Record<string, unknown>;
    expect(body.html).toBe('<p>Столица России — {{g1}}, Татарстана — {{g2}}.</p>');
    expect(body.content).toEqual({
      blanks: [
        { id: 'g1', kind: 'text' },
        {
          id: 'g2',
          kind: 'choice',
          options: [
            { id: 'c1', text: 'Уфа' },
            { id: 'c2', text: 'Казань' },
          ],
        },
      ],
    });
    expect(body.reference).toEqual({ blanks: { g1: ['Москва'], g2: ['c2'] } });
    // The next save goes to the new version.
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() => expect(api.callsTo(`PUT ${TASKS}/43`)).toHaveLength(1));
  });

  it('sets a matching key by picking the pair of every left item', async () => {
    const user = userEvent.setup();
    const api = server({ [`POST ${TASKS}`]: () => json(200, task({ id: 51, answerType: 'matching' })) });
    renderEditor({ subjectId: 7 });
    await screen.findByRole('heading', { name: 'Новое задание' });
    await pick(user, screen.getByRole('combobox', { name: 'Вид ответа' }), 'Соответствие');
    await user.click(await screen.findByTestId('confirm-type'));

    await typeHtml('<p>Сопоставьте страну и столицу.</p>');
    const left = screen.getByTestId('left');
    const right = screen.getByTestId('right');
    fill(within(left).getByRole('textbox', { name: 'Слева 1' }), 'Франция');
    fill(within(left).getByRole('textbox', { name: 'Слева 2' }), 'Италия');
    fill(within(right).getByRole('textbox', { name: 'Справа 1' }), 'Рим');
    fill(within(right).getByRole('textbox', { name: 'Справа 2' }), 'Париж');
    await user.click(within(right).getByRole('button', { name: 'Добавить элемент справа' }));
    fill(within(right).getByRole('textbox', { name: 'Справа 3' }), 'Мадрид');

    const key = screen.getByTestId('pairs-key');
    await pick(user, within(key).getByRole('combobox', { name: '1. Франция' }), '2. Париж');
    await pick(user, within(key).getByRole('combobox', { name: '2. Италия' }), '1. Рим');
    await user.click(screen.getByRole('radio', { name: /Доля верных пар, точно/ }));
    await user.click(screen.getByTestId('save-task'));

    await waitFor(() => expect(api.callsTo(`POST ${TASKS}`)).toHaveLength(1));
    const body = api.callsTo(`POST ${TASKS}`)[0]!.body as Record<string, unknown>;
    expect(body.answerType).toBe('matching');
    expect(body.content).toEqual({
      left: [
        { id: 'l1', html: 'Франция' },
        { id: 'l2', html: 'Италия' },
      ],
      right: [
        { id: 'r1', html: 'Рим' },
        { id: 'r2', html: 'Париж' },
        { id: 'r3', html: 'Мадрид' },
      ],
      shuffle: false,
    });
    expect(body.reference).toEqual({ pairs: { l1: 'r2', l2: 'r1' } });
    expect(body.scoring).toEqual({ method: 'share' });
  });

  it('keeps an expert task’s rubric adding up to the max score, with its step', async () => {
    const user = userEvent.setup();
    const api = server({ [`POST ${TASKS}`]: () => json(200, task({ id: 52, answerType: 'extended_text' })) });
    renderEditor({ subjectId: 7 });
    await screen.findByRole('heading', { name: 'Новое задание' });
    await pick(
      user,
      screen.getByRole('combobox', { name: 'Вид ответа' }),
      'Развёрнутый ответ (проверяют эксперты)',
    );
    await user.click(await screen.findByTestId('confirm-type'));
    await typeHtml('<p>Объясните, почему столица России — Москва.</p>');

    const maxScore = screen.getByRole('textbox', { name: /Максимальный балл/ });
    await user.clear(maxScore);
    await user.type(maxScore, '3');
    const rubric = screen.getByTestId('rubric');
    fill(within(rubric).getByRole('textbox', { name: 'Описание критерия 1' }), 'Тезис');
    await user.click(within(rubric).getByRole('button', { name: 'Добавить критерий' }));
    fill(within(rubric).getByRole('textbox', { name: 'Описание критерия 2' }), 'Аргументы');
    const points2 = within(rubric).getByRole('textbox', { name: 'Баллы критерия 2' });
    await user.clear(points2);
    await user.type(points2, '1');
    await pick(user, within(rubric).getByRole('combobox', { name: 'Шаг критерия 2' }), '0,5 балла');
    expect(within(rubric).getByTestId('rubric-sum')).toHaveTextContent('Сумма баллов критериев: 2 из 3');

    await user.click(screen.getByTestId('save-task'));
    expect(
      within(await screen.findByTestId('problems')).getByText(
        'Критерии: Сумма баллов критериев должна равняться максимальному баллу.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo(`POST ${TASKS}`)).toHaveLength(0);

    await user.click(within(rubric).getByRole('button', { name: 'Сделать максимальный балл равным 2' }));
    expect(maxScore).toHaveValue('2');
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() => expect(api.callsTo(`POST ${TASKS}`)).toHaveLength(1));
    const body = api.callsTo(`POST ${TASKS}`)[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      answerType: 'extended_text',
      content: { maxLength: 10000 },
      reference: null,
      scoring: { method: 'expert', thirdCheckThreshold: 1 },
      maxScore: 2,
      criteria: [
        { code: 'К1', text: 'Тезис', maxScore: 1, step: 1 },
        { code: 'К2', text: 'Аргументы', maxScore: 1, step: 0.5 },
      ],
    });
  });

  it('previews the task as the runner shows it and scores an answer with the score call', async () => {
    const user = userEvent.setup();
    const api = server({
      [`GET ${TASKS}/42`]: () => json(200, task()),
      [`POST ${TASKS}/42/score`]: ({ body }) =>
        json(200, {
          score: (body as { value: string }).value === 'o1' ? 1 : 0,
          maxScore: 1,
          status: 'scored',
          correct: (body as { value: string }).value === 'o1',
        }),
    });
    renderEditor({ taskId: 42 });
    await user.click(await screen.findByRole('tab', { name: 'Предпросмотр' }));
    const preview = await screen.findByTestId('task-preview');
    expect(within(preview).getByRole('heading', { name: 'Задание 1 из 1' })).toBeInTheDocument();
    expect(within(preview).getByText('Столица России?')).toBeInTheDocument();
    expect(within(preview).getByText('Макс. 1 балл')).toBeInTheDocument();

    await user.click(within(preview).getByRole('radio', { name: 'Казань' }));
    await user.click(screen.getByTestId('check-answer'));
    expect(await screen.findByTestId('score-result')).toHaveTextContent('Баллы: 0 / 1');
    await user.click(within(preview).getByRole('radio', { name: 'Москва' }));
    await user.click(screen.getByTestId('check-answer'));
    expect(await screen.findByTestId('score-result')).toHaveTextContent('Баллы: 1 / 1');
    expect(api.callsTo(`POST ${TASKS}/42/score`).map((c) => c.body)).toEqual([
      { value: 'o2' },
      { value: 'o1' },
    ]);
  });

  it('shows an imported QTI rule read-only and replaces it by a native method on request', async () => {
    const user = userEvent.setup();
    const qti = task({
      scoring: {
        method: 'qti',
        responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'identifier', correct: ['o1'] }],
        outcomes: [],
        template: 'match_correct',
        bind: { response: 'RESPONSE' },
        scoreOutcome: 'SCORE',
      },
      sourceFormat: 'qti',
    });
    const api = server({
      [`GET ${TASKS}/42`]: () => json(200, qti),
      [`PUT ${TASKS}/42`]: ({ body }) => json(200, { ...qti, ...(body as object) }),
    });
    renderEditor({ taskId: 42 });
    const imported = await screen.findByTestId('imported-scoring');
    expect(within(imported).getByText('Импортированная обработка ответа (QTI)')).toBeInTheDocument();
    expect(
      within(imported).getByText('Стандартное правило: полный балл за совпадение с верным ответом'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('scoring-method')).not.toBeInTheDocument();
    expect(screen.queryByText(/RESPONSE|match_correct/)).not.toBeInTheDocument();

    // Content stays editable; the QTI rule goes with the save as it came.
    fill(
      within(screen.getByTestId('options')).getByRole('textbox', { name: 'Вариант 2' }),
      'Казань (Татарстан)',
    );
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() => expect(api.callsTo(`PUT ${TASKS}/42`)).toHaveLength(1));
    expect((api.callsTo(`PUT ${TASKS}/42`)[0]!.body as { scoring: unknown }).scoring).toEqual(qti.scoring);

    await user.click(screen.getByTestId('replace-scoring'));
    await user.click(await screen.findByTestId('replace-scoring-confirm'));
    expect(screen.queryByTestId('imported-scoring')).not.toBeInTheDocument();
    expect(screen.getByTestId('scoring-method')).toBeInTheDocument();
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() => expect(api.callsTo(`PUT ${TASKS}/42`)).toHaveLength(2));
    expect((api.callsTo(`PUT ${TASKS}/42`)[1]!.body as { scoring: unknown }).scoring).toEqual({
      method: 'all_or_nothing',
    });
  });

  it('keeps the parts of an imported answer type as they came and edits its text fields', async () => {
    const user = userEvent.setup();
    const gapMatch = task({
      answerType: 'gap_match',
      html: '<p>Столица России — {{g1}}.</p>',
      content: {
        words: [
          { id: 'w1', html: 'Москва', matchMax: 1 },
          { id: 'w2', html: 'Казань', matchMax: 1 },
        ],
        gaps: [{ id: 'g1' }],
        shuffle: false,
      },
      reference: { pairs: { g1: 'w1' } },
      scoring: { method: 'all_or_nothing' },
    });
    const api = server({
      [`GET ${TASKS}/42`]: () => json(200, gapMatch),
      [`PUT ${TASKS}/42`]: ({ body }) => json(200, { ...gapMatch, ...(body as object) }),
    });
    renderEditor({ taskId: 42 });
    expect(await screen.findByTestId('imported-parts')).toBeInTheDocument();
    expect(screen.getByTestId('answer-type')).toHaveValue('Слова в пропуски текста');
    fill(screen.getByRole('textbox', { name: /Название/ }), 'Столица');
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() => expect(api.callsTo(`PUT ${TASKS}/42`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${TASKS}/42`)[0]!.body).toMatchObject({
      answerType: 'gap_match',
      title: 'Столица',
      content: gapMatch.content,
      reference: gapMatch.reference,
      scoring: gapMatch.scoring,
    });
  });

  it('uploads a picture to the task and puts it into the text', async () => {
    const user = userEvent.setup();
    const api = server({
      [`GET ${TASKS}/42`]: () => json(200, task()),
      'POST /api/files/upload/42': () =>
        json(200, [{ id: 9, name: 'карта.png', mime: 'image/png', size: 120 }]),
    });
    renderEditor({ taskId: 42 });
    const files = await screen.findByTestId('task-files');
    const input = files.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['png'], 'карта.png', { type: 'image/png' }));
    expect(await within(files).findByText('Загружен 1 файл.')).toBeInTheDocument();
    const call = api.callsTo('POST /api/files/upload/42')[0]!;
    expect(call.url).toContain('ownerType=task');
    expect((call.body as FormData).get('file')).toBeInstanceOf(File);

    await user.click(within(files).getByRole('button', { name: 'Вставить в текст' }));
    const field = screen.getByTestId('task-html');
    await user.click(within(field).getByRole('button', { name: 'HTML-код' }));
    expect((within(field).getByTestId('task-html-source') as HTMLTextAreaElement).value).toContain(
      '<img src="/api/files/9" alt="карта">',
    );
  });

  it('shows refusals by their code and the server’s field errors by field, never its message', async () => {
    const user = userEvent.setup();
    let answer = () =>
      json(400, {
        status: 400,
        code: 'invalid_task',
        message: 'The task does not follow the task model: body.maxScore must be a whole number',
        errors: [
          {
            path: 'body.maxScore',
            code: 'custom',
            message: 'must be a whole number for this scoring method',
          },
        ],
      });
    server({
      [`GET ${TASKS}/42`]: () => json(200, task()),
      [`PUT ${TASKS}/42`]: () => answer(),
    });
    renderEditor({ taskId: 42 });
    await screen.findByTestId('options');
    await user.click(screen.getByTestId('save-task'));
    expect(await screen.findByTestId('save-error')).toHaveTextContent('Задание заполнено неверно.');
    expect(
      within(screen.getByTestId('problems')).getByText('Максимальный балл: Значение не подходит.'),
    ).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/whole number|task model/);

    answer = () => apiError(409, 'conflict', 'the task was superseded');
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() =>
      expect(screen.getByTestId('save-error')).toHaveTextContent(
        'Действие невозможно в текущем состоянии. Обновите страницу.',
      ),
    );
    expect(screen.queryByTestId('problems')).not.toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/superseded/);
  });

  it('inserts a formula typed in TeX or MathML after a live preview', async () => {
    // KaTeX and MathML put <math> elements in the page, which jsdom cannot style: no queries by
    // accessible name below (they compute styles), only labels, titles and test ids.
    const user = userEvent.setup();
    server({ [`GET ${TASKS}/42`]: () => json(200, task({ html: '<p>Найдите \\(x^2\\).</p>' })) });
    renderEditor({ taskId: 42 });
    const field = await screen.findByTestId('task-html');
    // A stored TeX formula shows rendered in the editor.
    await waitFor(() => expect(field.querySelector('.task-editor-formula .katex')).not.toBeNull());

    await user.click(within(field).getByTitle('Формула'));
    const source = await screen.findByTestId('formula-source');
    fireEvent.change(source, { target: { value: '\\frac{1}{2' } });
    expect(screen.getAllByText(/не удалось разобрать/).length).toBeGreaterThan(0);
    expect(screen.getByTestId('formula-save')).toBeDisabled();
    fireEvent.change(source, { target: { value: '\\frac{1}{2}' } });
    expect(screen.getByTestId('formula-preview').querySelector('.katex')).not.toBeNull();
    await user.click(screen.getByTestId('formula-save'));
    await waitFor(() => expect(field.querySelectorAll('.task-editor-formula .katex')).toHaveLength(2));

    await user.click(within(field).getByTitle('Формула'));
    await user.click(await screen.findByLabelText('MathML'));
    fireEvent.change(await screen.findByTestId('formula-source'), {
      target: { value: '<mi>y</mi><mo>=</mo><mn>2</mn><script>alert(1)</script>' },
    });
    const math = screen.getByTestId('formula-preview').querySelector('math');
    expect(math).not.toBeNull();
    expect(math!.innerHTML).not.toContain('script');
    await user.click(screen.getByTestId('formula-save'));

    // Stored back as TeX text and sanitised MathML.
    await user.click(within(field).getByTitle('HTML-код'));
    const html = (within(field).getByTestId('task-html-source') as HTMLTextAreaElement).value;
    expect(html).toContain('\\(x^2\\)');
    expect(html).toContain('\\(\\frac{1}{2}\\)');
    expect(html).toMatch(/<math><mi>y<\/mi><mo>=<\/mo><mn>2<\/mn><\/math>/);
    expect(html).not.toContain('script');
  });
});

import type { ScanReviewItem } from '@attesta/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users, type Handler } from '../../test/test-app';
import { gridText, gridValues } from './lib/digit-grid';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const organizator = { id: 4, login: 'org', displayName: 'Сидорова Ольга', roles: ['organizator'] };

function server(user: object, extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, user),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/scans': () => json(200, { items: [], total: 0 }),
    ...extra,
  });
}

const page = (over: Record<string, unknown> = {}) => ({
  file: 'class-5a.pdf',
  page: 1,
  status: 'recognized',
  registrationCode: 'K7M2P9Q4R8T3',
  formPage: 1,
  answers: [
    { variantTaskId: 1, value: ['o2'], confidence: 0.9 },
    { variantTaskId: 2, value: ['1:4'], confidence: 0.8 },
  ],
  ...over,
});

describe('scan upload', { timeout: 20_000 }, () => {
  it('is in the navigation, uploads the chosen files as one form and follows the batch page by page', async () => {
    let polls = 0;
    const api = server(users.coordinator, {
      'POST /api/scans': () => json(202, { scanBatchId: 7 }),
      'GET /api/scans/7': () => {
        polls += 1;
        return polls === 1
          ? json(200, { status: 'running', pages: [page()] })
          : json(200, {
              status: 'done',
              pages: [
                page(),
                page({
                  file: 'photo.jpg',
                  status: 'unidentified',
                  registrationCode: null,
                  formPage: null,
                  answers: [],
                }),
              ],
            });
      },
    });
    const { router } = renderApp('/coordinator/scans');
    const nav = await screen.findByRole('navigation', { name: 'Разделы' });
    expect(await within(nav).findByRole('link', { name: 'Сканы бланков' })).toHaveAttribute(
      'href',
      '/coordinator/scans',
    );
    expect(within(nav).getByRole('link', { name: 'Проверка сканов' })).toHaveAttribute(
      'href',
      '/coordinator/scans/review',
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Сканы бланков ответов' }),
    ).toBeInTheDocument();

    const input = screen.getByTestId('scan-files');
    await userEvent.upload(input, [
      new File(['%PDF-1.7'], 'class-5a.pdf', { type: 'application/pdf' }),
      new File(['jpeg'], 'photo.jpg', { type: 'image/jpeg' }),
    ]);
    expect(within(screen.getByTestId('scan-chosen')).getAllByRole('row')).toHaveLength(2);
    await userEvent.click(screen.getByTestId('scan-send'));

    expect(await screen.findByTestId('scan-batch-status')).toHaveTextContent('Читается');
    const form = api.callsTo('POST /api/scans')[0]!.body as FormData;
    expect(form.getAll('file').map((f) => (f as File).name)).toEqual(['class-5a.pdf', 'photo.jpg']);
    expect(router.state.location.search).toBe('?batch=7');
    expect(screen.getByTestId('scan-batch-read')).toHaveTextContent('Прочитано страниц: 1');

    // Polled again until done: both pages, statuses in words.
    await waitFor(() => expect(screen.getByTestId('scan-batch-status')).toHaveTextContent('Прочитано'), {
      timeout: 4000,
    });
    const rows = within(screen.getByTestId('scan-pages'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['class-5a.pdf', '1', 'Распознана', 'K7M2P9Q4R8T3', '1', '2'],
      ['photo.jpg', '1', 'Не опознана', 'не прочитан', '—', '0'],
    ]);
    expect(screen.getByTestId('scan-batch-summary')).toHaveTextContent(
      'Распознано: 1, на проверку: 0, не опознано: 1, повторов: 0',
    );
    const polled = api.callsTo('GET /api/scans/7').length;
    expect(polled).toBe(2);
    // Done: no more polling.
    await new Promise((r) => setTimeout(r, 1300));
    expect(api.callsTo('GET /api/scans/7')).toHaveLength(polled);
    expect(screen.getByTestId('scan-to-review')).toHaveAttribute('href', '/coordinator/scans/review');
  });

  it('lists my uploads newest first with state and counts, pages through them, and opens one', async () => {
    const summary = (id: number, over: Record<string, unknown> = {}) => ({
      id,
      status: 'done',
      createdAt: '2026-12-01T07:05:00.000Z',
      finishedAt: '2026-12-01T07:06:00.000Z',
      files: [`class-${id}.pdf`],
      pages: { recognized: 3, needs_review: 1, unidentified: 0, duplicate: 0 },
      openReview: 2,
      ...over,
    });
    const all = [
      summary(40, { status: 'running', finishedAt: null, files: ['a.pdf', 'b.jpg'] }),
      ...Array.from({ length: 11 }, (_, i) => summary(39 - i)),
    ];
    const api = server(users.coordinator, {
      'GET /api/scans': ({ url }) => {
        const q = new URL(url, 'http://x').searchParams;
        const size = Number(q.get('pageSize'));
        const from = (Number(q.get('page')) - 1) * size;
        return json(200, { items: all.slice(from, from + size), total: all.length });
      },
      'GET /api/scans/39': () => json(200, { status: 'done', pages: [page()] }),
    });
    const { router } = renderApp('/coordinator/scans');
    const table = await screen.findByTestId('my-batches');
    expect(screen.getByRole('heading', { level: 2, name: 'Мои загрузки' })).toBeInTheDocument();
    const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((c) => c.textContent);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(10);
    expect(cells(rows[0]!).slice(1, 5)).toEqual([
      'a.pdf, b.jpg',
      'Читается',
      'Распознано: 3, на проверку: 1, не опознано: 0, повторов: 0',
      '2',
    ]);
    expect(cells(rows[1]!)[2]).toBe('Прочитано');
    // No raw statuses on the screen.
    expect(table.textContent).not.toMatch(/running|done|needs_review/);
    expect(api.callsTo('GET /api/scans')[0]!.url).toContain('page=1');

    await userEvent.click(screen.getByRole('button', { name: 'Страница 2' }));
    await waitFor(() => expect(within(screen.getByTestId('my-batches')).getAllByRole('row')).toHaveLength(3));
    expect(api.callsTo('GET /api/scans').at(-1)!.url).toContain('page=2');

    await userEvent.click(screen.getByRole('button', { name: 'Страница 1' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('my-batches')).getAllByRole('row')).toHaveLength(11),
    );
    const open = within(screen.getByTestId('my-batches')).getAllByRole('link', {
      name: /^Открыть загрузку от /,
    });
    await userEvent.click(open[1]!);
    expect(router.state.location.search).toBe('?batch=39');
    expect(await screen.findByTestId('scan-batch-status')).toHaveTextContent('Прочитано');
    expect(screen.getByTestId('scan-pages')).toHaveTextContent('K7M2P9Q4R8T3');
  });

  it('says when I have uploaded nothing yet', async () => {
    server(organizator);
    renderApp('/organizator/scans');
    expect(await screen.findByTestId('my-batches-empty')).toHaveTextContent('Вы ещё не загружали сканы.');
  });

  it('refuses a file of another kind before sending, and shows a refusal of the server by its code', async () => {
    const api = server(organizator, {
      'POST /api/scans': () => apiError(400, 'invalid_pdf', 'The PDF cannot be read'),
    });
    renderApp('/organizator/scans');
    const input = await screen.findByTestId('scan-files');
    await userEvent.upload(input, new File(['x'], 'answers.docx'), { applyAccept: false });
    expect(screen.getByTestId('scan-error')).toHaveTextContent(
      'Файл «answers.docx» не PDF, TIFF, JPEG или PNG.',
    );
    await userEvent.click(screen.getByTestId('scan-send'));
    expect(api.callsTo('POST /api/scans')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Убрать файл «answers.docx»' }));
    await userEvent.upload(input, new File(['%PDF'], 'broken.pdf', { type: 'application/pdf' }));
    expect(screen.queryByTestId('scan-error')).toBeNull();
    await userEvent.click(screen.getByTestId('scan-send'));
    expect(await screen.findByTestId('scan-error')).toHaveTextContent(
      'PDF не читается: файл повреждён или это не PDF.',
    );
    expect(screen.getByTestId('scan-error')).not.toHaveTextContent('The PDF cannot be read');
  });

  it('says in words that a batch of another uploader is out of reach', async () => {
    server(users.coordinator, { 'GET /api/scans/9': () => apiError(403, 'forbidden', 'Not yours') });
    renderApp('/coordinator/scans?batch=9');
    expect(await screen.findByTestId('scan-batch-error')).toHaveTextContent('Этот скан вне вашего доступа.');
  });

  it('asks about a batch again after a failed poll', async () => {
    let fail = true;
    const api = server(users.coordinator, {
      'GET /api/scans/3': () =>
        fail ? apiError(503, 'service_unavailable') : json(200, { status: 'done', pages: [page()] }),
    });
    renderApp('/coordinator/scans?batch=3');
    const error = await screen.findByTestId('scan-batch-error');
    fail = false;
    await userEvent.click(within(error).getByRole('button', { name: 'Спросить снова' }));
    expect(await screen.findByTestId('scan-batch-status')).toHaveTextContent('Прочитано');
    expect(api.callsTo('GET /api/scans/3')).toHaveLength(2);
  });
});

const choices = ['А', 'Б', 'В', 'Г'].map((label, i) => ({ value: `o${i + 1}`, label }));
/** A number task's grid of 4 columns in layout order: sign, then each column's digits and the comma after it. */
const gridChoices = [
  { value: 'sign:-', label: '−' },
  ...[1, 2, 3, 4].flatMap((col) => [
    ...Array.from({ length: 10 }, (_, d) => ({ value: `${col}:${d}`, label: String(d) })),
    ...(col < 4 ? [{ value: `comma:${col}`, label: ',' }] : []),
  ]),
];

const item = (over: Partial<ScanReviewItem>): ScanReviewItem => ({
  id: 1,
  kind: 'doubtful',
  status: 'open',
  scanBatchId: 7,
  file: 'class-5a.pdf',
  page: 1,
  createdAt: '2026-12-03T07:00:00.000Z',
  registrationCode: 'K7M2P9Q4R8T3',
  formPage: 1,
  participantName: 'Петров Иван',
  classId: 5,
  className: '5А',
  schoolName: 'Школа № 1',
  variantTaskId: 31,
  taskNumber: 3,
  answerType: 'single_choice',
  choices,
  digitColumns: null,
  recognized: ['o2'],
  confidence: 0.3,
  doubleMark: false,
  savedValue: null,
  resolution: null,
  problem: null,
  legend: null,
  crop: true,
  sourceFile: false,
  ...over,
});

const ITEMS = (): ScanReviewItem[] => [
  item({ id: 11 }),
  item({
    id: 12,
    kind: 'key_text',
    taskNumber: 4,
    answerType: 'short_text',
    choices: [],
    recognized: [],
    confidence: null,
  }),
  item({
    id: 13,
    kind: 'unidentified',
    registrationCode: null,
    formPage: null,
    participantName: null,
    classId: null,
    className: null,
    schoolName: null,
    variantTaskId: null,
    taskNumber: null,
    answerType: null,
    choices: [],
    recognized: [],
    confidence: null,
    file: 'photo.jpg',
  }),
  item({
    id: 14,
    taskNumber: 5,
    answerType: 'number',
    choices: gridChoices,
    digitColumns: 4,
    recognized: ['1:1', '2:2', 'comma:2', '3:5', '3:6'],
    confidence: 0,
    doubleMark: true,
  }),
];

/** A review server over a list of open items: the list filtered as asked, an action takes the item off. */
function reviewServer(open: ScanReviewItem[], action?: Handler, user: object = users.coordinator) {
  const counts = () => {
    const by = new Map<number | null, number>();
    for (const i of open) by.set(i.classId, (by.get(i.classId) ?? 0) + 1);
    return [...by].map(([classId, n]) => ({
      classId,
      className: classId === null ? null : '5А',
      schoolName: classId === null ? null : 'Школа № 1',
      open: n,
    }));
  };
  const api = server(user, {
    'GET /api/scans/review': ({ url }) => {
      const q = new URL(url, 'http://x').searchParams;
      const items = open.filter(
        (i) =>
          (!q.get('kind') || i.kind === q.get('kind')) &&
          (!q.get('classId') || i.classId === Number(q.get('classId'))),
      );
      // Paged as the call pages: oldest first, pageSize a page.
      const size = Number(q.get('pageSize') ?? 20);
      const from = (Number(q.get('page') ?? 1) - 1) * size;
      return json(200, { counts: counts(), items: items.slice(from, from + size), total: items.length });
    },
    ...Object.fromEntries(
      open.map((i) => [
        `POST /api/scans/review/${i.id}`,
        (request: Parameters<Handler>[0]) => {
          const refused = action?.(request);
          if (refused) return refused;
          open.splice(open.indexOf(i), 1);
          return json(200, { ...i, status: 'resolved', resolution: 'accepted' });
        },
      ]),
    ),
  });
  return api;
}

const card = () => screen.getByTestId('review-item');
const postsTo = (api: ReturnType<typeof reviewServer>, id: number) =>
  api.callsTo(`POST /api/scans/review/${id}`).map((c) => c.body);

describe('scan review', { timeout: 20_000 }, () => {
  it('shows the crop and what was read in words; Enter accepts it and the next item takes focus', async () => {
    const api = reviewServer(ITEMS());
    renderApp('/coordinator/scans/review');
    expect(await screen.findByRole('heading', { level: 1, name: 'Проверка сканов' })).toBeInTheDocument();
    await screen.findByTestId('review-item');

    const classes = within(screen.getByTestId('review-class'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(classes).toEqual([
      'Все классы (4)',
      '5А, Школа № 1 (3)',
      'Без класса — неопознанные страницы (1)',
    ]);
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 3');
    expect(within(card()).getByTestId('review-kind-badge')).toHaveTextContent('Сомнительная отметка');
    expect(within(card()).getByTestId('review-participant')).toHaveTextContent('Петров Иван');
    const crop = within(card()).getByRole('img', { name: 'Фрагмент скана: задание 3' });
    expect(crop).toHaveAttribute('src', '/api/scans/review/11/crop');
    expect(within(card()).getByTestId('review-read')).toHaveTextContent(/^Б$/);
    expect(within(card()).getByTestId('review-confidence')).toHaveTextContent('Уверенность чтения: 30 %');
    const bubbles = within(within(card()).getByTestId('review-choices')).getAllByRole('button');
    expect(bubbles.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'true', 'false', 'false']);
    // No raw enums or layout values on the screen.
    expect(card().textContent).not.toMatch(/doubtful|single_choice|o2\b/);

    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(postsTo(api, 11)).toEqual([{ action: 'accept' }]));
    expect(await screen.findByTestId('review-notice')).toHaveTextContent('Принято.');
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 4'));
    expect(within(card()).getByRole('textbox', { name: 'Текст ответа' })).toHaveFocus();
    // The list was asked again and no longer holds the settled item.
    await waitFor(() => expect(api.callsTo('GET /api/scans/review').length).toBeGreaterThanOrEqual(2));
    expect(
      within(screen.getByTestId('review-class')).getByRole('option', { name: 'Все классы (3)' }),
    ).toBeInTheDocument();
  });

  it('sets the bubbles chosen by digit keys instead of what was read; → skips without sending', async () => {
    const api = reviewServer(ITEMS());
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    await userEvent.keyboard('{ArrowRight}');
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 4');
    expect(within(card()).getByRole('textbox', { name: 'Текст ответа' })).toHaveFocus();
    // From inside the input, PageDown skips (→ stays the caret's).
    await userEvent.keyboard('{ArrowRight}');
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 4');
    await userEvent.keyboard('{PageDown}');
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Вся страница');
    expect(within(card()).getByTestId('review-keys')).toHaveTextContent('Enter опознать');
    expect(api.calls.filter((c) => c.key.startsWith('POST'))).toHaveLength(0);
    // Back to the first by the queue.
    await userEvent.click(
      within(screen.getByTestId('review-queue')).getByRole('button', { name: /Задание 3/ }),
    );
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 3');

    await userEvent.keyboard('3');
    await userEvent.keyboard('2');
    const bubbles = within(within(card()).getByTestId('review-choices')).getAllByRole('button');
    expect(bubbles.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'true', 'false']);
    expect(within(card()).getByTestId('review-accept')).toBeDisabled();
    await userEvent.click(within(card()).getByTestId('review-set'));
    await waitFor(() => expect(postsTo(api, 11)).toEqual([{ action: 'set', value: ['o3'] }]));
    expect(await screen.findByTestId('review-notice')).toHaveTextContent('Ответ сохранён.');
  });

  it('reads a digit grid as a number and sets the typed one in layout order', async () => {
    const api = reviewServer(ITEMS());
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    await userEvent.click(
      within(screen.getByTestId('review-queue')).getByRole('button', { name: /Задание 5/ }),
    );
    expect(within(card()).getByTestId('review-read')).toHaveTextContent('12,[56]');
    expect(within(card()).getByTestId('review-confidence')).toHaveTextContent(
      'Две отметки там, где допустима одна',
    );
    const digits = within(card()).getByRole('textbox', { name: /Число на бланке/ });
    await userEvent.clear(digits);
    await userEvent.type(digits, '123456{Enter}');
    expect(within(card()).getByText('Такое число не помещается в сетку этого задания.')).toBeInTheDocument();
    await userEvent.clear(digits);
    await userEvent.type(digits, '-12,5{Enter}');
    await waitFor(() =>
      expect(postsTo(api, 14)).toEqual([
        { action: 'set', value: ['sign:-', '1:1', '2:2', 'comma:2', '3:5'] },
      ]),
    );
  });

  it('keys in the text of a text box', async () => {
    const api = reviewServer(ITEMS());
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    await userEvent.selectOptions(screen.getByTestId('review-kind'), 'key_text');
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 4'));
    expect(api.callsTo('GET /api/scans/review').at(-1)!.url).toContain('kind=key_text');
    expect(within(card()).getByTestId('review-kind-badge')).toHaveTextContent('Ввести текст');
    await userEvent.type(within(card()).getByRole('textbox', { name: 'Текст ответа' }), 'фотосинтез{Enter}');
    await waitFor(() => expect(postsTo(api, 12)).toEqual([{ action: 'key', text: 'фотосинтез' }]));
    expect(await screen.findByTestId('review-empty')).toHaveTextContent('По этому отбору проверять нечего.');
  });

  it('identifies an unidentified page by its registration code and form sheet', async () => {
    const api = reviewServer(ITEMS());
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    await userEvent.selectOptions(screen.getByTestId('review-class'), 'none');
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Вся страница'));
    expect(api.callsTo('GET /api/scans/review').at(-1)!.url).toContain('kind=unidentified');
    expect(
      within(card()).getByRole('img', { name: 'Скан страницы из файла «photo.jpg», страница 1' }),
    ).toHaveAttribute('src', '/api/scans/review/13/crop');
    expect(within(card()).getByTestId('review-participant')).toHaveTextContent('не определён');

    await userEvent.click(within(card()).getByTestId('review-identify'));
    expect(within(card()).getByText('Введите регистрационный код с бланка.')).toBeInTheDocument();
    expect(postsTo(api, 13)).toHaveLength(0);

    await userEvent.type(
      within(card()).getByRole('textbox', { name: 'Регистрационный код' }),
      'K7M2P9Q4R8T3',
    );
    const sheet = within(card()).getByRole('textbox', { name: 'Лист бланка' });
    await userEvent.clear(sheet);
    await userEvent.type(sheet, '2');
    await userEvent.click(within(card()).getByTestId('review-identify'));
    await waitFor(() =>
      expect(postsTo(api, 13)).toEqual([
        { action: 'identify', registrationCode: 'K7M2P9Q4R8T3', formPage: 2 },
      ]),
    );
    expect(await screen.findByTestId('review-notice')).toHaveTextContent(
      'Страница опознана и прочитана заново.',
    );
  });

  it('replaces an answer saved from an earlier scan, or keeps it; sets an unreadable page aside by Enter', async () => {
    const open = [
      item({ id: 21, kind: 'replace', recognized: ['o3'], savedValue: ['o1'], confidence: 0.95 }),
      item({
        id: 22,
        kind: 'replace',
        taskNumber: 6,
        recognized: ['o4'],
        savedValue: ['o2'],
        confidence: 0.9,
      }),
      item({ id: 23, kind: 'unreadable', taskNumber: null, choices: [], recognized: [], confidence: null }),
    ];
    const api = reviewServer(open);
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    expect(screen.getByTestId('review-open')).toHaveTextContent('Открыто: 3');
    expect(within(card()).getByTestId('review-kind-badge')).toHaveTextContent('Повторный скан');
    expect(within(card()).getByTestId('review-saved')).toHaveTextContent(/^А$/);
    expect(within(card()).getByTestId('review-read')).toHaveTextContent(/^В$/);
    await userEvent.click(within(card()).getByRole('button', { name: 'Заменить новым' }));
    await waitFor(() => expect(postsTo(api, 21)).toEqual([{ action: 'accept' }]));

    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 6'));
    expect(card()).toHaveFocus();
    await userEvent.click(within(card()).getByRole('button', { name: 'Оставить прежний' }));
    await waitFor(() => expect(postsTo(api, 22)).toEqual([{ action: 'dismiss' }]));

    await waitFor(() =>
      expect(within(card()).getByTestId('review-kind-badge')).toHaveTextContent('Страница не прочитана'),
    );
    expect(card()).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(postsTo(api, 23)).toEqual([{ action: 'dismiss' }]));
    expect(await screen.findByTestId('review-empty')).toHaveTextContent('Проверять нечего');
  });

  it('says which field names no form on an identify refused, a work still open online, and a crop not kept', async () => {
    let answer = apiError(409, 'work_not_finished', 'The work is still open');
    const api = reviewServer(ITEMS(), () => answer);
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    fireEvent.error(within(card()).getByTestId('review-crop'));
    expect(within(card()).getByTestId('review-crop-missing')).toHaveTextContent(
      'Изображение скана не сохранилось или не загрузилось.',
    );
    await userEvent.keyboard('{Enter}');
    expect(await within(card()).findByTestId('review-error')).toHaveTextContent(
      'Участник ещё пишет эту работу онлайн',
    );
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 3');

    answer = json(400, {
      status: 400,
      code: 'validation_failed',
      message: 'No form of yours has this registration code',
      errors: [{ path: 'body.registrationCode', message: 'No form of yours has this registration code' }],
    });
    await userEvent.selectOptions(screen.getByTestId('review-class'), 'none');
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Вся страница'));
    await userEvent.type(within(card()).getByRole('textbox', { name: 'Регистрационный код' }), 'ZZZ{Enter}');
    await waitFor(() => expect(postsTo(api, 13)).toHaveLength(1));
    expect(
      await within(card()).findByText('Бланка с таким регистрационным кодом в вашем доступе нет.'),
    ).toBeInTheDocument();
    expect(card().textContent).not.toMatch(/No form of yours/);
  });

  it('shows a refused action in words (403, 400) and keeps the item', async () => {
    let answer = apiError(403, 'forbidden', 'Out of scope');
    const api = reviewServer(ITEMS(), () => answer);
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    await userEvent.keyboard('{Enter}');
    expect(await within(card()).findByTestId('review-error')).toHaveTextContent(
      'Этот скан вне вашего доступа.',
    );
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 3');

    answer = apiError(400, 'validation_failed', 'value: bad');
    await userEvent.click(within(card()).getByTestId('review-accept'));
    await waitFor(() =>
      expect(within(card()).getByTestId('review-error')).toHaveTextContent(
        'Значение не подходит к этому заданию. Проверьте ввод.',
      ),
    );
    expect(card().textContent).not.toMatch(/Out of scope|value: bad/);
    expect(postsTo(api, 11)).toHaveLength(2);

    // Settled meanwhile by someone else: the page says so and moves on.
    answer = apiError(409, 'conflict', 'Already resolved');
    await userEvent.click(within(card()).getByTestId('review-accept'));
    expect(await screen.findByTestId('review-notice')).toHaveTextContent(
      'Элемент уже решён другим пользователем: список обновлён.',
    );
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 4'));
    expect(api.callsTo('GET /api/scans/review').length).toBeGreaterThanOrEqual(2);
  });

  it("shows a matching grid's legend and an ordering grid's, so a person can judge the marks", async () => {
    reviewServer([
      item({
        id: 41,
        answerType: 'matching',
        taskNumber: 7,
        choices: [
          { value: 'a:o1', label: 'А–1' },
          { value: 'a:o2', label: 'А–2' },
          { value: 'b:o1', label: 'Б–1' },
          { value: 'b:o2', label: 'Б–2' },
        ],
        recognized: ['a:o1', 'a:o2', 'b:o2'],
        doubleMark: true,
        confidence: 0,
        legend: {
          rows: [
            { label: 'А', text: 'Москва' },
            { label: 'Б', text: 'Париж' },
          ],
          columns: [
            { label: '1', text: 'Россия' },
            { label: '2', text: 'Франция' },
          ],
        },
      }),
      item({
        id: 42,
        answerType: 'ordering',
        taskNumber: 8,
        choices: [
          { value: 'o1:1', label: '1–1' },
          { value: 'o1:2', label: '1–2' },
        ],
        recognized: ['o1:1', 'o1:2'],
        legend: {
          rows: [
            { label: '1', text: 'Весна' },
            { label: '2', text: 'Лето' },
            { label: '3', text: 'Осень' },
          ],
          columns: [1, 2, 3].map((n) => ({ label: String(n), text: '' })),
        },
      }),
    ]);
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    const legend = within(card()).getByRole('region', { name: 'Что означают строки и столбцы сетки' });
    expect(within(legend).getByTestId('review-legend-rows')).toHaveTextContent('АМосква');
    expect(within(legend).getByTestId('review-legend-rows')).toHaveTextContent('БПариж');
    expect(within(legend).getByTestId('review-legend-columns')).toHaveTextContent('1Россия2Франция');
    expect(within(card()).getByTestId('review-read')).toHaveTextContent('А–1А–2Б–2');

    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 8'));
    expect(within(card()).getByTestId('review-legend-rows')).toHaveTextContent('1Весна2Лето3Осень');
    expect(within(card()).getByTestId('review-legend-columns')).toHaveTextContent('места с 1 по 3');
  });

  it('says a page could not be decoded and offers its file instead of a crop', async () => {
    reviewServer([
      item({
        id: 51,
        kind: 'unidentified',
        file: 'cut.jpg',
        registrationCode: null,
        formPage: null,
        participantName: null,
        classId: null,
        className: null,
        schoolName: null,
        variantTaskId: null,
        taskNumber: null,
        answerType: null,
        choices: [],
        recognized: [],
        confidence: null,
        problem: 'invalid_image',
        crop: false,
        sourceFile: true,
      }),
    ]);
    const { i18n } = renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    expect(within(card()).queryByTestId('review-crop')).toBeNull();
    expect(within(card()).getByTestId('review-problem')).toHaveTextContent('Изображение в файле повреждено.');
    expect(within(card()).getByTestId('review-undecoded')).toHaveTextContent(
      'Эту страницу не удалось прочитать',
    );
    const link = within(card()).getByRole('link', { name: 'Скачать файл «cut.jpg»' });
    expect(link).toHaveAttribute('href', '/api/scans/review/51/file');
    expect(card().textContent).not.toMatch(/invalid_image/);
    await act(() => i18n.changeLanguage('en'));
    expect(
      await within(card()).findByRole('link', { name: 'Download the file “cut.jpg”' }),
    ).toBeInTheDocument();
    expect(within(card()).getByTestId('review-problem')).toHaveTextContent(
      'The image in the file is damaged.',
    );
  });

  it('speaks English too: kinds, values, actions and the navigation', async () => {
    reviewServer(ITEMS());
    const { i18n } = renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Scan review' })).toBeInTheDocument();
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Task 3');
    expect(within(card()).getByTestId('review-kind-badge')).toHaveTextContent('Doubtful mark');
    expect(within(card()).getByRole('button', { name: 'Accept what was read' })).toBeInTheDocument();
    expect(within(card()).getByRole('img', { name: 'Part of the scan: task 3' })).toBeInTheDocument();
    expect(
      within(screen.getByTestId('review-kind')).getByRole('option', { name: 'Key in text' }),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation');
    expect(await within(nav).findByRole('link', { name: 'Answer sheet scans' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Scan review' })).toHaveAttribute(
      'href',
      '/coordinator/scans/review',
    );
  });

  it('leaves for the unauthorized page when the session is gone during an action', async () => {
    reviewServer(ITEMS(), () => apiError(401, 'unauthorized', 'No session'));
    const { router } = renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/unauthorized'));
  });

  it('pages through a list longer than a page: the items of the page chosen, the first again on a filter', async () => {
    const many = Array.from({ length: 120 }, (_, i) => item({ id: 1000 + i, taskNumber: i + 1 }));
    const api = reviewServer(many);
    renderApp('/coordinator/scans/review');
    await screen.findByTestId('review-item');
    const queued = () => within(screen.getByTestId('review-queue')).getAllByRole('button');
    expect(queued()).toHaveLength(50);
    expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 1');
    expect(screen.getByTestId('review-open')).toHaveTextContent('120');
    const paging = screen.getByTestId('review-paging');
    expect(paging).toHaveTextContent('Пункты 1–50 из 120');

    await userEvent.click(within(paging).getByRole('button', { name: 'Страница 3' }));
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 101'));
    expect(api.callsTo('GET /api/scans/review').at(-1)!.url).toMatch(/[?&]page=3(&|$)/);
    expect(queued()).toHaveLength(20);
    expect(screen.getByTestId('review-paging')).toHaveTextContent('Пункты 101–120 из 120');

    await userEvent.click(screen.getByRole('button', { name: 'Предыдущая страница' }));
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 51'));
    expect(api.callsTo('GET /api/scans/review').at(-1)!.url).toMatch(/[?&]page=2(&|$)/);

    // Another filter starts again from its first page.
    await userEvent.selectOptions(screen.getByTestId('review-kind'), 'doubtful');
    await waitFor(() => expect(within(card()).getByTestId('review-task')).toHaveTextContent('Задание 1'));
    const last = api.callsTo('GET /api/scans/review').at(-1)!.url;
    expect(last).toContain('kind=doubtful');
    expect(last).not.toMatch(/[?&]page=/);
  });

  it('says when nothing is open, and when the list is out of reach', async () => {
    reviewServer([], undefined, organizator);
    const first = renderApp('/organizator/scans/review');
    expect(await screen.findByTestId('review-empty')).toHaveTextContent(
      'Проверять нечего: все сканы разобраны.',
    );
    first.unmount();

    server(users.coordinator, { 'GET /api/scans/review': () => apiError(403, 'forbidden') });
    renderApp('/coordinator/scans/review');
    expect(await screen.findByTestId('review-list-error')).toHaveTextContent('Этот скан вне вашего доступа.');
  });
});

describe('digit grid', () => {
  it('reads values as the number and types a number back as values', () => {
    expect(gridText(['sign:-', '1:1', '2:2', 'comma:2', '3:5'])).toBe('-12,5');
    expect(gridText(['1:1', '3:4'])).toBe('1?4');
    expect(gridText([])).toBe('');
    expect(gridValues('12.5', gridChoices)).toEqual(['1:1', '2:2', 'comma:2', '3:5']);
    expect(gridValues('', gridChoices)).toEqual([]);
    expect(gridValues('12a', gridChoices)).toBeNull();
    expect(gridValues('1,2345', gridChoices)).toBeNull();
  });
});

import {
  IMPORT_NOTE_CODES,
  IMPORT_NOTE_FIELDS,
  IMPORT_NOTE_PROBLEMS,
  IMPORT_NOTE_PARAMS,
} from '@attesta/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, renderApp } from '../../test/test-app';
import { contentBundle } from './locales';
import { contentServer, pick, subjectTest } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const gift = () => new File(['::q1:: 2+2 = {=4 ~3}'], 'quiz.gift', { type: 'text/plain' });

const done = {
  status: 'done',
  items: [
    {
      sourceId: 'q1',
      title: 'Сложение',
      taskId: 51,
      answerType: 'single_choice',
      outcome: 'imported',
      notes: [],
      noteCodes: [],
    },
    {
      sourceId: 'q2',
      title: 'Карта',
      taskId: 52,
      answerType: 'short_text',
      outcome: 'converted',
      notes: [
        'feedback to participants dropped (Attesta shows no answer feedback)',
        'gap 2: its choices are shown in the order written, not shuffled',
        'essay graded by experts with one rubric criterion worth the whole grade of 2.5 (Moodle grades an essay as a whole)',
      ],
      noteCodes: [
        { code: 'feedback_dropped' },
        { code: 'cloze_gap_not_shuffled', params: { gap: 2 } },
        { code: 'essay_one_criterion', params: { points: 2.5 } },
      ],
    },
    {
      sourceId: 'q3',
      title: 'Чертёж',
      taskId: null,
      answerType: null,
      outcome: 'refused',
      notes: [
        'drawing questions are not supported',
        'Moodle question type "drawing" is not supported',
        'too few choices: at least 2 are needed',
        'the task does not fit the model (choices: one identifier used twice)',
      ],
      // A code of a newer server, then ones this version knows (a field word translated too).
      noteCodes: [
        { code: 'drawing_unsupported' },
        { code: 'qtype_unsupported', params: { qtype: 'drawing' } },
        { code: 'task_too_few', params: { what: 'choices', min: 2 } },
        { code: 'qti_task_invalid', params: { what: 'choices', problem: 'repeated' } },
      ],
    },
  ],
  subjectTestIds: [12],
};

describe('content import', { timeout: 30_000 }, () => {
  it('uploads a file with a subject, follows the import until done and shows the report in words', async () => {
    const states = [
      { status: 'queued', items: [], subjectTestIds: [] },
      { status: 'running', items: [], subjectTestIds: [] },
      done,
    ];
    const api = contentServer({
      'POST /api/admin/content/import': () => json(202, { importId: 77 }),
      'GET /api/admin/content/import/77': () => json(200, states.length > 1 ? states.shift() : states[0]),
      'GET /api/admin/content/subjectTests/12': () => json(200, subjectTest(12, { name: 'Тест из файла' })),
    });
    const { router } = renderApp('/admin/content/import');
    await screen.findByTestId('import-file');
    await userEvent.upload(fileInput(), gift());
    await pick(document.body, 'Предмет', 'Математика (MATH)');
    await userEvent.click(screen.getByTestId('import-start'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/content/import/77'));

    const form = api.callsTo('POST /api/admin/content/import')[0]!.body as FormData;
    expect([...form.keys()]).toEqual(['subjectId', 'file']);
    expect(form.get('subjectId')).toBe('1');
    expect((form.get('file') as File).name).toBe('quiz.gift');

    expect(await screen.findByTestId('import-progress')).toBeInTheDocument();
    const report = await screen.findByTestId('import-done', {}, { timeout: 6000 });
    expect(
      within(report).getByText('Загружено как есть: 1, с изменениями: 1, не загружено: 1'),
    ).toBeInTheDocument();
    expect(within(report).getByTestId('import-outcome-q1')).toHaveTextContent('Загружено');
    expect(within(report).getByTestId('import-outcome-q2')).toHaveTextContent('Загружено с изменениями');
    expect(within(report).getByTestId('import-outcome-q3')).toHaveTextContent('Не загружено');
    expect(within(report).getByText('Выбор одного ответа')).toBeInTheDocument();
    expect(within(report).getByText('Краткий ответ')).toBeInTheDocument();
    // Notes by their codes, in Russian with their params; the server's English is not shown.
    const notes = (id: string) => [
      ...within(report).getByTestId(`import-notes-${id}`).querySelectorAll('li'),
    ];
    expect(notes('q2').map((li) => li.textContent)).toEqual([
      'Отзывы участникам удалены (Attesta не показывает отзывы на ответы)',
      'Пропуск 2: варианты показываются в записанном порядке, без перемешивания',
      'Эссе проверяют эксперты по одному критерию на весь балл задания (2,5): Moodle оценивает эссе целиком',
    ]);
    expect(report).not.toHaveTextContent('feedback to participants dropped');
    // A code this version does not know: a generic note, then the English text marked as English.
    const [unknown, known, fewChoices, repeated] = notes('q3');
    expect(fewChoices!.textContent).toBe('Слишком мало: варианты ответа (нужно не меньше 2)');
    // What is wrong with a field is a word too: no schema message is shown (defect 7g).
    expect(repeated!.textContent).toBe(
      'Задание не соответствует модели заданий (варианты ответа: один идентификатор использован дважды)',
    );
    expect(unknown!.textContent).toBe(
      'Замечание импорта (текст импорта по-английски): drawing questions are not supported',
    );
    expect(within(unknown!).getByText('drawing questions are not supported')).toHaveAttribute('lang', 'en');
    expect(known!.textContent).toBe('Тип вопроса Moodle «drawing» не поддерживается');
    expect(report).not.toHaveTextContent('single_choice');
    expect(within(report).getByTestId('import-task-51')).toHaveAttribute('href', '/admin/content/tasks/51');
    expect(await within(report).findByRole('link', { name: 'Тест из файла' })).toHaveAttribute(
      'href',
      '/admin/content/tests/12',
    );
    // Done: no more polling.
    const polls = api.callsTo('GET /api/admin/content/import/77').length;
    await new Promise((r) => setTimeout(r, 1300));
    expect(api.callsTo('GET /api/admin/content/import/77')).toHaveLength(polls);
  });

  it('in English the notes are the English texts of their codes', async () => {
    contentServer({
      'GET /api/admin/content/import/79': () => json(200, { ...done, subjectTestIds: [] }),
    });
    const { i18n } = renderApp('/admin/content/import/79');
    await act(() => i18n.changeLanguage('en'));
    const report = await screen.findByTestId('import-done');
    const q2 = [...within(report).getByTestId('import-notes-q2').querySelectorAll('li')];
    expect(q2.map((li) => li.textContent)).toEqual([
      'Feedback to participants dropped (Attesta shows no answer feedback)',
      'Gap 2: its choices are shown in the order written, not shuffled',
      'Essay graded by experts with one rubric criterion worth the whole grade of 2.5 (Moodle grades an essay as a whole)',
    ]);
    expect(within(report).getByTestId('import-notes-q3').querySelector('li')!.textContent).toBe(
      'Import note (as the import wrote it): drawing questions are not supported',
    );
  });

  it('every note code the server can write has a Russian and an English text naming only its params', () => {
    const texts = (lang: 'ru' | 'en') =>
      (contentBundle[lang].content as { import: { noteCodes: Record<string, string> } }).import.noteCodes;
    for (const lang of ['ru', 'en'] as const) {
      const table = texts(lang);
      expect(Object.keys(table).sort()).toEqual([...IMPORT_NOTE_CODES].sort());
      for (const code of IMPORT_NOTE_CODES) {
        expect(table[code]?.trim(), `${lang} ${code}`).toBeTruthy();
        const named = [...table[code]!.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
        for (const name of named)
          expect(IMPORT_NOTE_PARAMS[code] as readonly string[], `${lang} ${code} {{${name}}}`).toContain(
            name,
          );
      }
    }
    // Every field word a note may carry (`what`) is said in both languages.
    for (const lang of ['ru', 'en'] as const) {
      const words = (contentBundle[lang].content as { import: { noteWhat: Record<string, string> } }).import
        .noteWhat;
      expect(Object.keys(words).sort(), lang).toEqual([...IMPORT_NOTE_FIELDS].sort());
      const problems = (contentBundle[lang].content as { import: { noteProblem: Record<string, string> } })
        .import.noteProblem;
      expect(Object.keys(problems).sort(), lang).toEqual([...IMPORT_NOTE_PROBLEMS].sort());
    }
    // The Russian texts are Russian (the generic note and the codes alike).
    for (const code of IMPORT_NOTE_CODES) expect(texts('ru')[code], code).toMatch(/[а-яё]/i);
  });

  it('offers the full marks of a held task on the report; bad input is said, a good one sent and the report shown again', async () => {
    const heldItem = {
      sourceId: 'h1',
      title: 'Без полного балла',
      taskId: 61,
      answerType: 'cloze',
      outcome: 'converted' as const,
      fullMarksNeeded: true,
      notes: ['the full marks cannot be derived…'],
      noteCodes: [{ code: 'qti_max_score_needed' }],
    };
    const report = (item: object) => ({ status: 'done', items: [item], subjectTestIds: [] });
    const api = contentServer({
      'GET /api/admin/content/import/80': () => json(200, report(heldItem)),
      'POST /api/admin/content/import/80/fullMarks': () =>
        json(
          200,
          report({
            ...heldItem,
            fullMarksNeeded: undefined,
            notes: [...heldItem.notes, 'full marks 2.5 given by an admin'],
            noteCodes: [...heldItem.noteCodes, { code: 'full_marks_given', params: { points: 2.5 } }],
          }),
        ),
    });
    renderApp('/admin/content/import/80');
    const form = await screen.findByTestId('import-full-marks-61');
    expect(screen.getByTestId('import-notes-h1')).toHaveTextContent('задание ждёт вне теста');
    await userEvent.click(within(form).getByTestId('import-full-marks-give-61'));
    expect(await within(form).findByText('Больше 0 и не больше 100')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/content/import/80/fullMarks')).toHaveLength(0);
    await userEvent.type(within(form).getByLabelText('Полный балл'), '2.5');
    await userEvent.click(within(form).getByTestId('import-full-marks-give-61'));
    await waitFor(() => expect(screen.queryByTestId('import-full-marks-61')).toBeNull());
    expect(api.callsTo('POST /api/admin/content/import/80/fullMarks')[0]!.body).toEqual({
      taskId: 61,
      maxScore: 2.5,
    });
    expect(screen.getByTestId('import-notes-h1')).toHaveTextContent('Полный балл 2,5 задан администратором');
  });

  it('a failed import is said by its code and creates nothing', async () => {
    contentServer({
      'GET /api/admin/content/import/78': () =>
        json(200, {
          status: 'failed',
          error: { code: 'package_unsafe', message: 'entry ../../etc/passwd escapes the package' },
          items: [],
          subjectTestIds: [],
        }),
    });
    renderApp('/admin/content/import/78');
    const failed = await screen.findByTestId('import-failed');
    expect(failed).toHaveTextContent('Ничего не создано.');
    expect(failed).not.toHaveTextContent('passwd');
    expect(failed).not.toHaveTextContent('package_unsafe');
  });

  it('refuses a file of another kind before sending; a refusal of the server is said by its code', async () => {
    const api = contentServer({
      'POST /api/admin/content/import': () => apiError(415, 'unsupported_format', 'Send a QTI package'),
    });
    renderApp('/admin/content/import');
    await screen.findByTestId('import-file');
    await userEvent.click(screen.getByTestId('import-start'));
    expect(await screen.findByText('Выберите файл')).toBeInTheDocument();
    // The file dialog offers only the kinds it reads; a file dropped on it may be any.
    await userEvent.setup({ applyAccept: false }).upload(fileInput(), new File(['x'], 'notes.docx'));
    await userEvent.click(screen.getByTestId('import-start'));
    expect(
      await screen.findByText('Этот вид файла не загружается: нужен .zip, .xml, .gift или .txt'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/content/import')).toHaveLength(0);

    await userEvent.upload(fileInput(), gift());
    await userEvent.click(screen.getByTestId('import-start'));
    const error = await screen.findByTestId('import-error');
    expect(error).not.toHaveTextContent('Send a QTI package');
    expect(error.textContent).not.toBe('');
  });
});

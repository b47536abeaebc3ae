import { ANSWER_FILE_MAX_BYTES, TASK_SCHEMAS, type AnswerType } from '@attesta/contract';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../test/test-app';
import { createI18n } from '../../lib/i18n';
import { createQueryClient } from '../../lib/query-client';
import { AnswerInput, type AnswerInputTask } from './answer-input';
import { isAnswered } from './answer-value';
import type { FileUploader } from './file-input';
import { htmlLabel, htmlToText, renderRichHtml } from './rich-html';

function setup(task: AnswerInputTask, initial?: unknown, upload?: FileUploader) {
  const emitted: unknown[] = [];
  function Harness() {
    const [value, setValue] = useState<unknown>(initial);
    return (
      <AnswerInput
        task={task}
        value={value}
        onChange={(next) => {
          emitted.push(next);
          setValue(next);
        }}
        upload={upload}
      />
    );
  }
  render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      <Harness />
    </AppProviders>,
  );
  const last = () => emitted.at(-1);
  /** Every value sent must match the contract's value schema of its type. */
  const expectValid = () => {
    for (const v of emitted)
      expect(TASK_SCHEMAS[task.answerType].value.safeParse(v).success, JSON.stringify(v)).toBe(true);
  };
  return { emitted, last, expectValid };
}

const task = (
  answerType: AnswerType,
  content: Record<string, unknown>,
  html = '<p>Задание</p>',
): AnswerInputTask => ({
  answerType,
  content,
  html,
});
const options = [
  { id: 'a', html: 'Москва' },
  { id: 'b', html: 'Казань' },
  { id: 'c', html: 'Тверь' },
];

describe('answer inputs emit the value shape of TASK_SCHEMAS', () => {
  it('single choice: a radio group → option id', async () => {
    const { last, expectValid } = setup(task('single_choice', { options }));
    await userEvent.click(screen.getByTestId('option-b'));
    expect(last()).toBe('b');
    expect(screen.getByTestId('option-b')).toBeChecked();
    expect(screen.getAllByRole('radio')).toHaveLength(3);
    await userEvent.click(screen.getByTestId('clear-answer'));
    expect(last()).toBe('');
    expectValid();
  });

  it('multiple choice: checkboxes in display order, maxChoices locks the rest', async () => {
    const { last, expectValid } = setup(task('multiple_choice', { options, maxChoices: 2 }));
    await userEvent.click(screen.getByTestId('option-c'));
    await userEvent.click(screen.getByTestId('option-a'));
    expect(last()).toEqual(['a', 'c']);
    expect(screen.getByTestId('option-b')).toBeDisabled();
    await userEvent.click(screen.getByTestId('option-c'));
    expect(last()).toEqual(['a']);
    expect(screen.getByTestId('option-b')).toBeEnabled();
    expectValid();
  });

  it('short text: the typed string, limited by maxLength', async () => {
    const { last, expectValid } = setup(task('short_text', { maxLength: 5 }));
    await userEvent.type(screen.getByTestId('short-text'), 'Пушкин');
    expect(last()).toBe('Пушки');
    expectValid();
  });

  it('number: decimal keyboard, comma or point, unit shown, letters dropped', async () => {
    const { last, expectValid } = setup(task('number', { unit: 'км/ч' }));
    const input = screen.getByTestId('number-input');
    expect(input).toHaveAttribute('inputmode', 'decimal');
    expect(screen.getByText('км/ч')).toBeInTheDocument();
    await userEvent.type(input, '-2,5x');
    expect(last()).toBe('-2,5');
    await userEvent.clear(input);
    await userEvent.type(input, '1 250.75');
    expect(last()).toBe('1 250.75');
    expectValid();
  });

  it('digit sequence: one cell per digit, typing moves on, paste fills, backspace goes back', async () => {
    const { last, expectValid } = setup(task('digit_sequence', { length: 4 }));
    expect(screen.getAllByTestId(/^digit-\d$/)).toHaveLength(4);
    screen.getByTestId('digit-0').focus();
    await userEvent.keyboard('3a1');
    expect(last()).toBe('31');
    expect(screen.getByTestId('digit-2')).toHaveFocus();
    fireEvent.paste(screen.getByTestId('digit-2'), { clipboardData: { getData: () => '4 2 9' } });
    expect(last()).toBe('3142');
    screen.getByTestId('digit-3').focus();
    await userEvent.keyboard('{Backspace}');
    expect(last()).toBe('314');
    expectValid();
  });

  it('digit sequence without length: one digits-only field', async () => {
    const { last } = setup(task('digit_sequence', {}));
    await userEvent.type(screen.getByTestId('digit-input'), '1-2 3');
    expect(last()).toBe('123');
  });

  it('ordering: up/down buttons give the whole order and announce the move', async () => {
    const items = [
      { id: 'x', html: 'Первый' },
      { id: 'y', html: 'Второй' },
      { id: 'z', html: 'Третий' },
    ];
    const { last, expectValid } = setup(task('ordering', { items }));
    expect(screen.getByTestId('order-up-x')).toBeDisabled();
    await userEvent.click(screen.getByTestId('order-down-x'));
    expect(last()).toEqual(['y', 'x', 'z']);
    await userEvent.click(screen.getByTestId('order-up-z'));
    expect(last()).toEqual(['y', 'z', 'x']);
    expect(screen.getByText('«Третий» — теперь на месте 2 из 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Переместить выше: Второй' })).toBeDisabled();
    expectValid();
  });

  it('ordering: drag and drop moves an item', () => {
    const items = [
      { id: 'x', html: 'Первый' },
      { id: 'y', html: 'Второй' },
    ];
    const { last } = setup(task('ordering', { items }));
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (k: string, v: string) => data.set(k, v),
      getData: (k: string) => data.get(k) ?? '',
    };
    fireEvent.dragStart(screen.getByTestId('order-item-y'), { dataTransfer });
    fireEvent.drop(screen.getByTestId('order-item-x'), { dataTransfer });
    expect(last()).toEqual(['y', 'x']);
  });

  it('matching: a select per left item → left id → right id, "not chosen" removes the pair', async () => {
    const { last, expectValid } = setup(
      task('matching', {
        left: [
          { id: 'l1', html: 'Пушкин' },
          { id: 'l2', html: 'Толстой' },
        ],
        right: [
          { id: 'r1', html: 'Война и мир' },
          { id: 'r2', html: 'Евгений Онегин' },
          { id: 'r3', html: 'Мёртвые души' },
        ],
      }),
    );
    await userEvent.selectOptions(screen.getByTestId('match-l1'), 'r2');
    await userEvent.selectOptions(screen.getByTestId('match-l2'), 'r1');
    expect(last()).toEqual({ l1: 'r2', l2: 'r1' });
    expect(within(screen.getByTestId('match-l1')).getByText('Б) Евгений Онегин')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByTestId('match-l1'), '');
    expect(last()).toEqual({ l2: 'r1' });
    expectValid();
  });

  it('cloze: inline text fields and selects at the {{id}} places of the text', async () => {
    const { last, expectValid } = setup(
      task(
        'cloze',
        {
          blanks: [
            { id: 'g1', kind: 'text' },
            {
              id: 'g2',
              kind: 'choice',
              options: [
                { id: 'o1', text: 'в' },
                { id: 'o2', text: 'на' },
              ],
            },
          ],
        },
        '<p>Столица России — {{g1}}. Книга лежит {{g2}} столе.</p>',
      ),
    );
    const text = screen.getByTestId('blank-g1');
    expect(text.closest('p')).toHaveTextContent('Столица России');
    await userEvent.type(text, 'Москва');
    await userEvent.selectOptions(screen.getByTestId('blank-g2'), 'o2');
    expect(last()).toEqual({ g1: 'Москва', g2: 'o2' });
    expect(screen.queryByText('{{g1}}', { exact: false })).toBeNull();
    expectValid();
  });

  it('cloze: a gap whose options hold formulas shows them as radios with their markup (issue 27, defect 7b)', async () => {
    const { last, expectValid } = setup(
      task(
        'cloze',
        {
          blanks: [
            {
              id: 'g1',
              kind: 'choice',
              options: [
                { id: 'o1', text: '2x', html: '<math><mn>2</mn><mi>x</mi></math>' },
                { id: 'o2', text: 'x2', html: '<math><msup><mi>x</mi><mn>2</mn></msup></math>' },
                { id: 'o3', text: '2' },
              ],
            },
          ],
        },
        '<p>The derivative of x² is {{g1}}.</p>',
      ),
    );
    const group = screen.getByRole('radiogroup', { name: 'Пропуск 1' });
    expect(group.closest('p')).toHaveTextContent('The derivative of');
    expect(group.querySelectorAll('math')).toHaveLength(2);
    expect(group.querySelector('msup')).not.toBeNull();
    await userEvent.click(screen.getByTestId('blank-g1-o2'));
    expect(last()).toEqual({ g1: 'o2' });
    expect(within(group).getAllByRole('radio')).toHaveLength(3);
    expectValid();
  });

  // Issue 23, item 6: matching and cloze fields fit their answers instead of cutting them.
  const chWidth = (el: HTMLElement) => Number(/calc\((\d+)ch/.exec(el.style.width)?.[1] ?? 0);

  it('matching: each select is as wide as its longest choice, and the row lets it wrap under the item', () => {
    setup(
      task('matching', {
        left: [{ id: 'l1', html: 'Автор' }],
        right: [
          { id: 'r1', html: 'Война и мир' },
          { id: 'r2', html: 'Преступление и наказание' },
        ],
      }),
    );
    const select = screen.getByTestId('match-l1');
    const root = select.closest<HTMLElement>('.lite-field')!;
    expect(chWidth(root)).toBeGreaterThanOrEqual('Б) Преступление и наказание'.length);
    expect(root.closest('.matching-row')).not.toBeNull();
  });

  it('cloze: a typed gap is as wide as its expected length and grows with what is typed', async () => {
    setup(
      task(
        'cloze',
        {
          blanks: [
            { id: 'g1', kind: 'text', width: 20 },
            { id: 'g2', kind: 'text' },
            { id: 'g3', kind: 'number' },
          ],
        },
        '<p>{{g1}}, {{g2}} и {{g3}}</p>',
      ),
    );
    expect(chWidth(screen.getByTestId('blank-g1'))).toBeGreaterThanOrEqual(20);
    const g2 = screen.getByTestId('blank-g2');
    const before = chWidth(g2);
    expect(before).toBeGreaterThanOrEqual(10);
    await userEvent.type(g2, 'электрификация всей страны');
    expect(chWidth(g2)).toBeGreaterThan('электрификация всей страны'.length);
    await userEvent.type(screen.getByTestId('blank-g3'), '12345678901,5');
    expect(chWidth(screen.getByTestId('blank-g3'))).toBeGreaterThan('12345678901,5'.length);
  });

  it('extended text: a textarea with a character counter and the maxLength', async () => {
    const { last, expectValid } = setup(task('extended_text', { maxLength: 20 }));
    const area = screen.getByTestId('extended-text');
    expect(area).toHaveAttribute('maxlength', '20');
    await userEvent.type(area, 'Мой ответ');
    expect(last()).toBe('Мой ответ');
    expect(screen.getByText('9 из 20 символов')).toBeInTheDocument();
    expectValid();
  });

  it('file: uploads with progress, lists the file, removing saves the value without it', async () => {
    let report!: (share: number) => void;
    let finish!: () => void;
    const upload = vi.fn<FileUploader>(
      (_files, _current, onProgress) =>
        new Promise((resolve) => {
          report = onProgress;
          finish = () => resolve([{ id: 55, name: 'photo.jpg', size: 2048 }]);
        }),
    );
    // The runner turns the upload's answer into the stored value; here the harness plays it.
    const { last, expectValid } = setup(
      task('file', { accept: ['image/*'], maxFiles: 2, maxSizeMb: 1 }),
      { fileIds: [12] },
      upload,
    );
    const file = new File(['x'.repeat(100)], 'photo.jpg', { type: 'image/jpeg' });
    await userEvent.upload(screen.getByTestId('file-input'), file);
    expect(upload).toHaveBeenCalledWith([file], [12], expect.any(Function));
    report(0.5);
    expect(await screen.findByText('Файл отправляется: 50 %')).toBeInTheDocument();
    finish();
    expect(await screen.findByTestId('attached-12')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('remove-file-12'));
    expect(last()).toEqual({ fileIds: [] });
    expectValid();
  });

  it('file: a file over what the server stores is refused here, never sent (issue 23 item 7)', async () => {
    const upload = vi.fn<FileUploader>();
    // The task allows 50 MB; the server stores at most ANSWER_FILE_MAX_BYTES (20 MB).
    setup(task('file', { accept: ['image/*'], maxFiles: 1, maxSizeMb: 50 }), undefined, upload);
    expect(screen.getByText('Можно прикрепить 1 файл, до 20 МБ.')).toBeInTheDocument();
    const big = new File(['x'], 'scan.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: ANSWER_FILE_MAX_BYTES + 1 });
    await userEvent.upload(screen.getByTestId('file-input'), big);
    expect(await screen.findByText('Файл «scan.png» больше 20 МБ.')).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();
  });

  it('file: a failed upload offers a retry with the same files', async () => {
    const upload = vi
      .fn<FileUploader>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce([{ id: 1, name: 'a.png' }]);
    setup(task('file', { accept: ['image/*'], maxFiles: 1, maxSizeMb: 1 }), undefined, upload);
    await userEvent.upload(screen.getByTestId('file-input'), new File(['1'], 'a.png', { type: 'image/png' }));
    await userEvent.click(await screen.findByTestId('upload-retry'));
    expect(upload).toHaveBeenCalledTimes(2);
    expect(upload.mock.calls[1]![0][0]!.name).toBe('a.png');
  });
});

describe('answered state and rich html', () => {
  it('knows when a value is an answer', () => {
    expect(isAnswered('single_choice', '')).toBe(false);
    expect(isAnswered('single_choice', 'a')).toBe(true);
    expect(isAnswered('matching', {})).toBe(false);
    expect(isAnswered('cloze', { g1: ' ' })).toBe(false);
    expect(isAnswered('file', { fileIds: [1] })).toBe(true);
    expect(isAnswered('ordering', undefined)).toBe(false);
  });

  it('sanitizes first, then renders TeX with KaTeX; MathML stays', () => {
    const html = renderRichHtml(
      '<p onclick="x()">Найдите \\(x^2\\)<script>alert(1)</script><math><mi>y</mi></math></p>',
    );
    expect(html).not.toContain('onclick');
    expect(html).not.toContain('<script');
    expect(html).toContain('class="katex"');
    expect(html).toContain('<mi>y</mi>');
  });
});

// Issue 23, item 6: names read from task html keep their exponents.
describe('spoken names of task html', () => {
  it('says an exponent as «в степени»: html, MathML and TeX (through KaTeX)', () => {
    expect(htmlToText('2<sup>3</sup>', 'ru')).toBe('2 в степени 3');
    expect(htmlToText('x<sup>2</sup> + 1', 'ru')).toBe('x в степени 2 + 1');
    expect(htmlToText('<math><msup><mi>a</mi><mn>2</mn></msup></math>', 'ru')).toBe('a в степени 2');
    expect(htmlToText('\\(10^{-1}\\)', 'ru')).toBe('10 в степени −1');
    expect(htmlToText('\\(\\frac{1}{2}\\)', 'ru')).toBe('1 делённое на 2');
    expect(htmlToText('2<sup>3</sup>', 'en')).toBe('2 to the power of 3');
    // Marks that are no exponent stay as they are.
    expect(htmlToText('1<sup>st</sup> place', 'en')).toBe('1st place');
    expect(htmlToText('Закон<sup>*</sup>', 'ru')).toBe('Закон*');
    // Paragraphs do not run into each other.
    expect(htmlToText('<p>Один</p><p>два</p>', 'ru')).toBe('Один два');
    expect(htmlLabel('<img src="a.png" alt="Схема">', 'Элемент 1', 'ru')).toBe('Схема');
  });

  it('names a matching select and its options with the exponent spoken', async () => {
    setup(
      task('matching', {
        left: [{ id: 'l1', html: '2<sup>3</sup>' }],
        right: [
          { id: 'r1', html: '8' },
          { id: 'r2', html: '3<sup>2</sup>' },
        ],
      }),
    );
    expect(screen.getByRole('combobox', { name: /2 в степени 3/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Б) 3 в степени 2' })).toBeInTheDocument();
  });

  it('names a choice whose text holds an exponent by the spoken text; the text reads it too', () => {
    setup(
      task('single_choice', {
        options: [
          { id: 'a', html: '2<sup>3</sup>' },
          { id: 'b', html: '3<sup>2</sup>' },
        ],
      }),
    );
    expect(screen.getByRole('radio', { name: '2 в степени 3' })).toBeInTheDocument();
    // Read as text, the rendered html says it as well; the eye still sees 2³.
    expect(renderRichHtml('2<sup>3</sup>', false, 'ru')).toBe(
      '2<span class="visually-hidden"> в степени </span><sup>3</sup>',
    );
  });
});

import { answerValueSchemaFor, type TaskAnswerType } from '@attesta/contract';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { createQueryClient } from '../../lib/query-client';
import { AppProviders } from '../../test/test-app';
import { AnswerInput, ownImageFileIds, showsOwnHtml, type AnswerInputTask } from './answer-input';
import { isAnswered } from './answer-value';

/*
 * The inputs of the imported answer types, each from content as the server serves it: the value
 * it emits parses with the contract's answerValueSchemaFor(type), a saved value comes back, and
 * everything works from the keyboard.
 */

function setup(task: AnswerInputTask, initial?: unknown, lang: 'ru' | 'en' = 'ru') {
  const emitted: unknown[] = [];
  const commit = vi.fn();
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
        onCommit={commit}
      />
    );
  }
  render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n(lang)}>
      <Harness />
    </AppProviders>,
  );
  const last = () => emitted.at(-1);
  /** Every value sent parses with the contract's value schema of the type. */
  const expectValid = () => {
    expect(emitted.length).toBeGreaterThan(0);
    for (const v of emitted) {
      const parsed = answerValueSchemaFor(task.answerType).safeParse(v);
      expect(parsed.success, JSON.stringify(v)).toBe(true);
    }
  };
  return { emitted, last, expectValid, commit };
}

const task = (answerType: TaskAnswerType, content: Record<string, unknown>, html = '<p>Задание</p>') => ({
  answerType,
  content,
  html,
});

// ---------------------------------------------------------------- gap match

const gapMatch = task(
  'gap_match',
  {
    words: [
      { id: 'w1', html: 'Москва', matchMax: 1 },
      { id: 'w2', html: 'Париж', matchMax: 1 },
      { id: 'w3', html: '<img src="/api/files/3" alt="Лондон">', matchMax: 2 },
    ],
    gaps: [{ id: 'g1' }, { id: 'g2' }],
    shuffle: false,
  },
  '<p>Столица России — {{g1}}, столица Франции — {{g2}}.</p>',
);

describe('gap match', () => {
  it('puts words into the gaps of the text by a select per gap, respecting matchMax, and clears a gap', async () => {
    const { last, expectValid } = setup(gapMatch);
    const g1 = screen.getByRole('combobox', { name: 'Пропуск 1' });
    expect(g1.closest('p')).toHaveTextContent('Столица России');
    expect(screen.queryByText('{{g1}}', { exact: false })).toBeNull();
    // The word bank shows the words themselves (a picture too).
    expect(within(screen.getByTestId('word-w3')).getByRole('img', { name: 'Лондон' })).toBeInTheDocument();

    await userEvent.selectOptions(g1, 'w1');
    expect(last()).toEqual({ g1: 'w1' });
    const g2 = screen.getByRole('combobox', { name: 'Пропуск 2' });
    // Москва may be used once: taken for the second gap.
    expect(within(g2).getByRole('option', { name: 'Москва (занято)' })).toBeDisabled();
    expect(within(g2).getByRole('option', { name: 'Лондон' })).toBeEnabled();
    expect(screen.getByTestId('word-w1')).toHaveTextContent('уже в пропуске');

    await userEvent.selectOptions(g2, 'w3');
    expect(last()).toEqual({ g1: 'w1', g2: 'w3' });
    expect(screen.getByTestId('word-w3')).toHaveTextContent('использовано 1 из 2');

    await userEvent.click(screen.getByRole('button', { name: 'Очистить пропуск 1' }));
    expect(last()).toEqual({ g2: 'w3' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Пропуск 2' }), '');
    expect(last()).toEqual({});
    expectValid();
  });

  it('restores a saved value and works from the keyboard', async () => {
    const { last, expectValid } = setup(gapMatch, { g1: 'w2', g2: 'w3' });
    expect(screen.getByRole('combobox', { name: 'Пропуск 1' })).toHaveValue('w2');
    expect(screen.getByRole('combobox', { name: 'Пропуск 2' })).toHaveValue('w3');
    await userEvent.tab();
    expect(screen.getByRole('combobox', { name: 'Пропуск 1' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Очистить пропуск 1' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(last()).toEqual({ g2: 'w3' });
    expectValid();
  });

  it('a word dragged from the bank drops into a gap', () => {
    const { last } = setup(gapMatch);
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (k: string, v: string) => data.set(k, v),
      getData: (k: string) => data.get(k) ?? '',
    };
    fireEvent.dragStart(screen.getByTestId('word-w2'), { dataTransfer });
    fireEvent.drop(screen.getByTestId('gap-g2'), { dataTransfer });
    expect(last()).toEqual({ g2: 'w2' });
  });

  it('speaks English too', () => {
    setup(gapMatch, undefined, 'en');
    expect(screen.getByText('Words for the gaps')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Gap 1' })).toBeInTheDocument();
  });
});

// ---------------------------------------------------------------- associate

const associate = task('associate', {
  items: [
    { id: 'i1', html: 'Пушкин', matchMax: 1 },
    { id: 'i2', html: 'Евгений Онегин', matchMax: 1 },
    { id: 'i3', html: 'Толстой', matchMax: 1 },
    { id: 'i4', html: 'Анна Каренина', matchMax: 1 },
    { id: 'i5', html: 'Гоголь', matchMax: 0 },
  ],
  maxAssociations: 2,
  shuffle: false,
});

describe('associate', () => {
  it('pairs two pressed items, announces it, respects matchMax and maxAssociations, removes a pair', async () => {
    const { last, expectValid } = setup(associate);
    const item = (name: string) => screen.getByRole('button', { name });
    await userEvent.click(item('Пушкин'));
    expect(item('Пушкин')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Выбран элемент «Пушкин». Выберите второй элемент пары.')).toBeInTheDocument();
    await userEvent.click(item('Евгений Онегин'));
    expect(last()).toEqual([['i1', 'i2']]);
    expect(screen.getByText('Пара составлена: Пушкин — Евгений Онегин')).toBeInTheDocument();
    // Each may be paired once: Пушкин is used up now and pressing it does nothing.
    expect(item('Пушкин, больше пар не составить')).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(item('Пушкин, больше пар не составить'));
    expect(item('Пушкин, больше пар не составить')).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(item('Толстой'));
    await userEvent.click(item('Гоголь'));
    expect(last()).toEqual([
      ['i1', 'i2'],
      ['i3', 'i5'],
    ]);
    // Two pairs at most: nothing more is offered.
    expect(screen.getByText(/Составлено наибольшее число пар/)).toBeInTheDocument();
    expect(item('Анна Каренина')).toHaveAttribute('aria-disabled', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Удалить пару: Пушкин — Евгений Онегин' }));
    expect(last()).toEqual([['i3', 'i5']]);
    expect(item('Анна Каренина')).not.toHaveAttribute('aria-disabled');
    expectValid();
  });

  it('a pair made twice is refused; restores saved pairs; works by keyboard with Escape to cancel', async () => {
    const items = (associate.content.items as { id: string }[]).map((x) =>
      x.id === 'i4' ? { ...x, matchMax: 0 } : x,
    );
    const { last, emitted, expectValid } = setup({ ...associate, content: { ...associate.content, items } }, [
      ['i5', 'i4'],
    ]);
    const pairs = screen.getByRole('list', { name: 'Составленные пары' });
    expect(within(pairs).getByText('Гоголь')).toBeInTheDocument();
    expect(within(pairs).getByText('Анна Каренина')).toBeInTheDocument();
    // Keyboard: Tab to an item, Space picks it, Escape cancels.
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Пушкин' })).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Пушкин' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Пушкин' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('Выбор отменён.')).toBeInTheDocument();
    // Анна Каренина and Гоголь (both any number of pairs) again, the other way round: the same pair.
    await userEvent.click(screen.getByRole('button', { name: 'Анна Каренина' }));
    await userEvent.click(screen.getByRole('button', { name: 'Гоголь' }));
    expect(screen.getByText('Пара «Анна Каренина — Гоголь» уже есть.')).toBeInTheDocument();
    expect(emitted).toHaveLength(0);
    // Enter pairs by keyboard.
    screen.getByRole('button', { name: 'Пушкин' }).focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    expect(last()).toEqual([
      ['i5', 'i4'],
      ['i1', 'i2'],
    ]);
    expectValid();
  });
});

// ---------------------------------------------------------------- hottext

const hottext = task(
  'hottext',
  {
    choices: [
      { id: 'h1', html: 'Мама' },
      { id: 'h2', html: 'мыла' },
      { id: 'h3', html: '<i>красную</i>' },
    ],
    maxChoices: 2,
  },
  '<p>{{h1}} {{h2}} {{h3}} раму.</p>',
);

describe('hottext', () => {
  it('marks become toggle buttons inside the text; the value keeps the text order; maxChoices holds', async () => {
    const { last, expectValid } = setup(hottext);
    const span = (name: string) => screen.getByRole('button', { name });
    expect(span('Мама').closest('p')).toHaveTextContent('раму');
    await userEvent.click(span('красную'));
    await userEvent.click(span('Мама'));
    expect(last()).toEqual(['h1', 'h3']);
    expect(span('Мама')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('hottext-selected')).toHaveTextContent('Выбрано: Мама, красную');
    expect(span('мыла')).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(span('мыла'));
    expect(last()).toEqual(['h1', 'h3']);
    await userEvent.click(span('Мама'));
    expect(last()).toEqual(['h3']);
    expectValid();
  });

  it('restores a saved value and toggles by keyboard', async () => {
    const { last, expectValid, commit } = setup(hottext, ['h2']);
    expect(screen.getByRole('button', { name: 'мыла' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Мама' })).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(last()).toEqual(['h1', 'h2']);
    await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    expect(last()).toEqual(['h1']);
    expect(commit).toHaveBeenCalled();
    expectValid();
  });
});

// ---------------------------------------------------------------- hotspot

const hotspot = task('hotspot', {
  image: { fileId: 7, width: 400, height: 300, alt: 'Карта России' },
  areas: [
    { id: 'a1', shape: 'rect', coords: [10, 10, 100, 80] },
    { id: 'a2', shape: 'circle', coords: [200, 150, 40] },
    { id: 'a3', shape: 'poly', coords: [300, 20, 380, 20, 340, 90] },
  ],
  select: 'areas',
  maxChoices: 2,
});

describe('hotspot', () => {
  it('draws the picture from the files call with the areas as named toggles over it', async () => {
    const { last, expectValid } = setup(hotspot);
    const picture = screen.getByRole('group', { name: 'Карта России' });
    expect(picture.querySelector('image')).toHaveAttribute('href', '/api/files/7');
    expect(picture.querySelector('rect')).toHaveAttribute('width', '90');
    expect(picture.querySelector('polygon')).toHaveAttribute('points', '300,20 380,20 340,90');
    const area = (n: number) => screen.getByRole('button', { name: `Область ${n}` });
    await userEvent.click(area(3));
    await userEvent.click(area(1));
    expect(last()).toEqual(['a1', 'a3']);
    expect(area(1)).toHaveAttribute('aria-pressed', 'true');
    expect(area(2)).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(area(2));
    expect(last()).toEqual(['a1', 'a3']);
    await userEvent.click(area(1));
    expect(last()).toEqual(['a3']);
    expectValid();
  });

  it('restores a saved value; the areas are reached by Tab and pressed by Space or Enter', async () => {
    const { last, expectValid } = setup(hotspot, ['a2']);
    expect(screen.getByRole('button', { name: 'Область 2' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Область 1' })).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(last()).toEqual(['a1', 'a2']);
    await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    expect(last()).toEqual(['a1']);
    expectValid();
  });

  it('a package path is used as is, a scheme like javascript: never', () => {
    setup(
      task('hotspot', { ...hotspot.content, image: { src: 'javascript:alert(1)', width: 10, height: 10 } }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Рисунок к заданию не удалось показать');
    expect(document.querySelector('image')).toBeNull();
  });

  it('points: served without areas, set by a click on the picture or by coordinates, removed from the list', async () => {
    // As the server serves it: the areas are the key where points are set.
    const points = task('hotspot', {
      image: { src: 'media/map.png', width: 400, height: 300 },
      areas: [],
      select: 'points',
      maxChoices: 2,
    });
    const { last, expectValid } = setup(points, ['10 20']);
    expect(screen.getByText('Точка 1: (10; 20)')).toBeInTheDocument();
    const picture = screen.getByTestId('hotspot-picture');
    expect(picture.querySelector('image')).toHaveAttribute('href', 'media/map.png');
    expect(screen.queryByRole('button', { name: /Область/ })).toBeNull();
    vi.spyOn(picture, 'getBoundingClientRect').mockReturnValue({
      left: 0,
      top: 0,
      width: 200,
      height: 150,
    } as DOMRect);
    fireEvent.click(picture, { clientX: 50, clientY: 30 });
    expect(last()).toEqual(['10 20', '100 60']);
    expect(screen.getByText(/Поставлено наибольшее число точек/)).toBeInTheDocument();
    expect(screen.getByTestId('add-point')).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Убрать точку 1: (10; 20)' }));
    expect(last()).toEqual(['100 60']);
    // By keyboard: X, Y, Enter.
    await userEvent.type(screen.getByRole('textbox', { name: 'X (от 0 до 400)' }), '12a3');
    await userEvent.type(screen.getByRole('textbox', { name: 'Y (от 0 до 300)' }), '45{Enter}');
    expect(last()).toEqual(['100 60', '123 45']);
    expectValid();
  });

  it('points outside the picture are refused with a message', async () => {
    const points = task('hotspot', {
      image: { fileId: 2, width: 40, height: 30 },
      areas: [],
      select: 'points',
    });
    const { emitted } = setup(points);
    await userEvent.type(screen.getByRole('textbox', { name: 'X (от 0 до 40)' }), '41');
    await userEvent.type(screen.getByRole('textbox', { name: 'Y (от 0 до 30)' }), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Поставить точку' }));
    expect(screen.getByText('Координаты — целые числа в пределах рисунка.')).toBeInTheDocument();
    expect(emitted).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- composite

const composite = task(
  'composite',
  {
    parts: [
      { id: 'p1', answerType: 'short_text', content: { maxLength: 30 } },
      {
        id: 'p2',
        answerType: 'single_choice',
        content: {
          options: [
            { id: 'o1', html: 'больше' },
            { id: 'o2', html: 'меньше' },
          ],
          shuffle: false,
        },
      },
      { id: 'p3', answerType: 'number', content: { unit: 'км' } },
      {
        id: 'p4',
        answerType: 'multiple_choice',
        content: {
          options: [
            { id: 'm1', html: 'Волга' },
            { id: 'm2', html: 'Обь' },
            { id: 'm3', html: 'Дунай' },
          ],
          shuffle: false,
        },
      },
      {
        id: 'p5',
        answerType: 'ordering',
        content: {
          items: [
            { id: 'x', html: 'Первый' },
            { id: 'y', html: 'Второй' },
          ],
          shuffle: false,
        },
      },
      {
        id: 'p6',
        answerType: 'hotspot',
        content: { image: { fileId: 9, width: 100, height: 100 }, areas: [], select: 'points' },
      },
    ],
  },
  '<p>Столица — {{p1}}. Москва {{p2}} Твери, до Твери {{p3}}.</p><div>{{p4}}</div><div>{{p5}}</div><div>{{p6}}</div>',
);

describe('composite', () => {
  it('fields and inline choices sit in the line, other parts are labelled blocks at their marks', async () => {
    const { last, expectValid } = setup(composite);
    const line = screen.getByRole('textbox', { name: 'Пропуск 1' }).closest('p')!;
    expect(line).toHaveTextContent('Столица');
    expect(within(line).getByRole('combobox', { name: 'Пропуск 2' })).toBeInTheDocument();
    expect(within(line).getByRole('textbox', { name: 'Пропуск 3 (число)' })).toHaveAttribute(
      'inputmode',
      'decimal',
    );
    expect(within(line).getByText('км')).toBeInTheDocument();
    const block = screen.getByRole('group', { name: 'Часть 4' });
    expect(block.closest('p')).toBeNull();
    expect(screen.getByRole('group', { name: 'Часть 6' })).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'Пропуск 1' }), 'Москва');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Пропуск 2' }), 'o1');
    await userEvent.type(screen.getByRole('textbox', { name: 'Пропуск 3 (число)' }), '16x0,5');
    await userEvent.click(within(block).getByRole('checkbox', { name: 'Обь' }));
    await userEvent.click(screen.getByRole('button', { name: 'Переместить ниже: Первый' }));
    expect(last()).toEqual({ p1: 'Москва', p2: 'o1', p3: '160,5', p4: ['m2'], p5: ['y', 'x'] });
    // A part emptied again leaves the value.
    await userEvent.click(within(block).getByRole('checkbox', { name: 'Обь' }));
    expect(last()).toEqual({ p1: 'Москва', p2: 'o1', p3: '160,5', p5: ['y', 'x'] });
    expectValid();
    const value = last() as Record<string, unknown>;
    const types = { p1: 'short_text', p2: 'single_choice', p3: 'number', p5: 'ordering' } as const;
    for (const [id, type] of Object.entries(types))
      expect(answerValueSchemaFor(type).safeParse(value[id]).success, id).toBe(true);
  });

  it('restores a saved value, works by keyboard and sets points in a picture part', async () => {
    const { last, expectValid } = setup(composite, { p1: 'Тверь', p2: 'o2', p4: ['m1', 'm3'], p6: ['5 6'] });
    expect(screen.getByRole('textbox', { name: 'Пропуск 1' })).toHaveValue('Тверь');
    expect(screen.getByRole('combobox', { name: 'Пропуск 2' })).toHaveValue('o2');
    expect(screen.getByRole('checkbox', { name: 'Дунай' })).toBeChecked();
    expect(screen.getByText('Точка 1: (5; 6)')).toBeInTheDocument();
    await userEvent.tab();
    expect(screen.getByRole('textbox', { name: 'Пропуск 1' })).toHaveFocus();
    await userEvent.keyboard('Тула');
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole('textbox', { name: 'Пропуск 3 (число)' })).toHaveFocus();
    await userEvent.keyboard('2.5');
    await userEvent.tab();
    expect(screen.getByRole('checkbox', { name: 'Волга' })).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(last()).toEqual({ p1: 'Тула', p2: 'o2', p3: '2.5', p4: ['m3'], p6: ['5 6'] });
    expectValid();
  });

  it('a drop-down among words stays a list of choices when it stands alone', () => {
    const alone = task(
      'composite',
      { parts: [(composite.content.parts as unknown[])[1]] },
      '<p>Выберите:</p><div>{{p2}}</div>',
    );
    setup(alone);
    expect(screen.getByRole('group', { name: 'Часть 1' })).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(2);
  });
});

// ---------------------------------------------------------------- cloze number gaps

describe('cloze number gaps', () => {
  it('a numeric field: decimal keyboard, comma or point, letters dropped', async () => {
    const { last, expectValid } = setup(
      task(
        'cloze',
        {
          blanks: [
            { id: 'b1', kind: 'text' },
            { id: 'b2', kind: 'number', width: 6 },
          ],
        },
        '<p>Река {{b1}} длиной {{b2}} км.</p>',
      ),
      { b2: '3,5' },
    );
    const field = screen.getByRole('textbox', { name: 'Пропуск 2 (число)' });
    expect(field).toHaveValue('3,5');
    expect(field).toHaveAttribute('inputmode', 'decimal');
    expect(field).toHaveAccessibleDescription('Дробную часть можно отделить запятой или точкой');
    await userEvent.clear(field);
    await userEvent.type(field, '3 530.5км');
    expect(last()).toEqual({ b2: '3 530.5' });
    expectValid();
  });
});

describe('answered state and what the task shows itself', () => {
  it('knows when a value of the new types is an answer', () => {
    expect(isAnswered('gap_match', {})).toBe(false);
    expect(isAnswered('gap_match', { g1: 'w1' })).toBe(true);
    expect(isAnswered('associate', [])).toBe(false);
    expect(isAnswered('associate', [['a', 'b']])).toBe(true);
    expect(isAnswered('hottext', ['h1'])).toBe(true);
    expect(isAnswered('hotspot', [])).toBe(false);
    expect(isAnswered('composite', { p1: ' ', p2: [] })).toBe(false);
    expect(isAnswered('composite', { p1: '', p2: ['x'] })).toBe(true);
  });

  it('texts with places and hotspot pictures belong to their inputs', () => {
    expect(['cloze', 'gap_match', 'hottext', 'composite'].every(showsOwnHtml)).toBe(true);
    expect(showsOwnHtml('hotspot')).toBe(false);
    expect(ownImageFileIds('hotspot', hotspot.content)).toEqual([7]);
    expect(ownImageFileIds('composite', composite.content)).toEqual([9]);
    expect(ownImageFileIds('single_choice', {})).toEqual([]);
  });
});

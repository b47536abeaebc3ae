import { describe, expect, it } from 'vitest';
import { addSpan, loadSpans, markIndexOf, paint, removeSpan, saveSpans, spanOf, unpaint } from './highlights';

function stem(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

describe('the highlighter', () => {
  it('turns a selection into offsets of the stem text and draws it back as marks', () => {
    const root = stem('<p>Найдите <b>площадь</b> квадрата.</p>');
    const range = document.createRange();
    const text = root.querySelector('p')!.firstChild!; // "Найдите "
    range.setStart(text, 3);
    range.setEnd(root.querySelector('b')!.firstChild!, 4);
    const span = spanOf(root, range)!;
    expect(span).toEqual({ start: 3, end: 12 });
    paint(root, [span]);
    const marks = root.querySelectorAll('mark[data-highlight]');
    expect([...marks].map((m) => m.textContent).join('')).toBe('дите площ');
    expect(root.textContent).toBe('Найдите площадь квадрата.');
    expect(markIndexOf(marks[1]!)).toBe(0);
    unpaint(root);
    expect(root.querySelector('mark')).toBeNull();
    expect(root.innerHTML).toBe('<p>Найдите <b>площадь</b> квадрата.</p>');
  });

  it('joins overlapping marks, removes one, and ignores selections outside the stem', () => {
    expect(addSpan([{ start: 0, end: 5 }], { start: 3, end: 9 })).toEqual([{ start: 0, end: 9 }]);
    expect(addSpan([{ start: 10, end: 12 }], { start: 0, end: 2 })).toEqual([
      { start: 0, end: 2 },
      { start: 10, end: 12 },
    ]);
    expect(
      removeSpan(
        [
          { start: 0, end: 2 },
          { start: 5, end: 6 },
        ],
        0,
      ),
    ).toEqual([{ start: 5, end: 6 }]);
    const root = stem('<p>текст</p>');
    const outside = stem('<p>другое</p>');
    const range = document.createRange();
    range.selectNodeContents(outside);
    expect(spanOf(root, range)).toBeNull();
  });

  it('keeps marks per task in the session storage', () => {
    saveSpans('7:101', [{ start: 1, end: 4 }]);
    expect(loadSpans('7:101')).toEqual([{ start: 1, end: 4 }]);
    expect(loadSpans('7:102')).toEqual([]);
    saveSpans('7:101', []);
    expect(sessionStorage.getItem('attesta.highlights.7:101')).toBeNull();
  });
});

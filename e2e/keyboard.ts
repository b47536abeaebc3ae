import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** One place the Tab key stopped at. */
export interface Stop {
  /** tag, role, name and test id, for messages and for finding a control in the walk. */
  label: string;
  testId: string;
  /** The stop is a link or button inside a table body (a row action). */
  inRow: boolean;
  /** The element's number in this walk: the same element keeps it. */
  id: number;
  /** Whatever a keyboard user would miss here; empty when the stop is fine. */
  problems: string[];
}

/**
 * Runs in the page on every stop: checks the focused element and the one focused before it (now
 * unfocused, so its look without focus can be compared with the look it had with focus).
 */
function inspectFocus(): { end: boolean; stop: Stop; prevProblem: string | null } {
  type Kw = {
    prev?: { parts: Element[]; looks: string[]; el: Element; label: string };
    ids?: WeakMap<Element, number>;
    next?: number;
  };
  const w = window as unknown as { __kw?: Kw };
  const kw = (w.__kw ??= {});
  // Where a focus indicator may be drawn: the element, the box drawn next to a hidden input
  // (Mantine's switch track, checkbox icon), its label, and the field box around the input of a
  // multi-select (up to three levels up).
  const partsOf = (el: Element) =>
    [
      el,
      el.parentElement,
      el.parentElement?.parentElement,
      el.parentElement?.parentElement?.parentElement,
      el.nextElementSibling,
      el.closest('label'),
    ].filter((e): e is Element => Boolean(e));
  const lookOf = (e: Element) => {
    const s = getComputedStyle(e);
    return [
      s.outlineStyle,
      s.outlineWidth,
      s.outlineColor,
      s.boxShadow,
      s.borderColor,
      s.backgroundColor,
    ].join(' ');
  };
  const describe = (el: Element) => {
    const name = (
      el.getAttribute('aria-label') ??
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      el.textContent ??
      ''
    )
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 40);
    const testId = el.getAttribute('data-testid') ?? '';
    return `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} «${name}»${testId ? ` #${testId}` : ''}`;
  };

  let prevProblem: string | null = null;
  const prev = kw.prev;
  const el = document.activeElement;
  // The previous stop, now unfocused, has to look different somewhere; a part around it that holds
  // the newly focused element (a neighbour, a common ancestor) shows that element's focus instead.
  if (
    prev &&
    el &&
    prev.el !== el &&
    prev.el.isConnected &&
    prev.parts.every((part, i) => (i > 0 && part.contains(el)) || lookOf(part) === prev.looks[i])
  )
    prevProblem = `${prev.label}: looks the same focused and unfocused (no visible focus indicator)`;

  if (!el || el === document.body || el === document.documentElement) {
    kw.prev = undefined;
    return {
      end: true,
      stop: { label: 'body', id: -1, testId: '', inRow: false, problems: [] },
      prevProblem,
    };
  }
  const label = describe(el);
  const problems: string[] = [];
  let box = el.getBoundingClientRect();
  // A visually hidden input (switch, checkbox, file) shows itself through its label.
  if (box.width * box.height < 4)
    box = (el.closest('label') ?? el.parentElement ?? el).getBoundingClientRect();
  const style = getComputedStyle(el);
  if (box.width * box.height < 4 || style.visibility === 'hidden') problems.push('not visible');
  if (box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth)
    problems.push(`outside the viewport (${Math.round(box.left)},${Math.round(box.top)})`);
  else {
    // WCAG 2.4.11: no sticky header or overlay hides the focused control.
    const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    const owner = el.closest('label') ?? el.parentElement;
    if (top && !el.contains(top) && !top.contains(el) && !owner?.contains(top))
      problems.push(`hidden under ${describe(top)}`);
  }
  const parts = partsOf(el);
  kw.prev = { el, parts, looks: parts.map(lookOf), label };
  const ids = (kw.ids ??= new WeakMap());
  if (!ids.has(el)) ids.set(el, (kw.next = (kw.next ?? 0) + 1));
  return {
    end: false,
    stop: {
      label,
      id: ids.get(el)!,
      testId: el.getAttribute('data-testid') ?? '',
      inRow: Boolean(el.closest('tbody')) && /^(a|button)$/i.test(el.tagName),
      problems,
    },
    prevProblem,
  };
}

/**
 * Moves the Tab starting point to the top of the page without a visible change. Transitions are
 * switched off (a field's border takes 100 ms to change colour), so the look read right after a
 * key press is the final one.
 */
export async function focusTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __kwSheet?: CSSStyleSheet };
    if (!w.__kwSheet) {
      w.__kwSheet = new CSSStyleSheet();
      w.__kwSheet.replaceSync('*, *::before, *::after { transition: none !important; }');
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, w.__kwSheet];
    }
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
    (window as unknown as { __kw?: object }).__kw = {};
  });
}

/**
 * Presses Tab from the top of the page until focus has gone round the page (to the body, past
 * the last control) or `max` stops, checking every stop: visible, inside the viewport, not hidden
 * under a sticky header, and drawn differently focused than unfocused. Fails with every problem
 * found; fails as a keyboard trap when focus comes back to an earlier stop before going round. Shift+Tab then has to walk back over the last stops in reverse order.
 */
export async function tabWalk(page: Page, screen: string, max = 120): Promise<Stop[]> {
  await focusTop(page);
  const stops: Stop[] = [];
  const seen: number[] = [];
  const problems: string[] = [];
  let wentRound = false;
  let backAtFirst = false;
  let repeats = 0;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const { end, stop, prevProblem } = await page.evaluate(inspectFocus);
    if (prevProblem) problems.push(prevProblem);
    if (end) {
      wentRound = true;
      break;
    }
    const key = stop.id;
    // A date field takes Tab between its day, month and year: the same element, a few times.
    if (key === stops.at(-1)?.id && repeats++ < 4) continue;
    repeats = 0;
    if (seen.includes(key)) {
      // Going round the page passes the body (the browser's own controls) before the first stop.
      problems.push(`keyboard trap: Tab came back to ${stop.label} from ${stops.at(-1)?.label}`);
      backAtFirst = true;
      break;
    }
    seen.push(key);
    stops.push(stop);
    problems.push(...stop.problems.map((p) => `${stop.label}: ${p}`));
  }
  // Back with Shift+Tab over the last stops (from the end of the page, or from where the walk stopped).
  const back = backAtFirst ? [] : (wentRound ? stops.slice(-3) : stops.slice(-4, -1)).reverse();
  let from = wentRound ? -1 : (stops.at(-1)?.id ?? -1);
  for (const expected of back) {
    await page.keyboard.press('Shift+Tab');
    let { stop } = await page.evaluate(inspectFocus);
    // Back through a date field's parts.
    for (let n = 0; n < 4 && stop.id === from && stop.id !== expected.id; n++) {
      await page.keyboard.press('Shift+Tab');
      ({ stop } = await page.evaluate(inspectFocus));
    }
    from = stop.id;
    if (stop.id !== expected.id)
      problems.push(`Shift+Tab went to ${stop.label} instead of back to ${expected.label}`);
  }
  // A11Y_SURVEY=1 lists what the walk finds without failing, like the axe check.
  if (process.env.A11Y_SURVEY) {
    console.log(
      `${screen}: ${stops.length} stops${wentRound ? '' : ' (stopped)'}\n  ${problems.join('\n  ')}`,
    );
    return stops;
  }
  if (problems.length)
    throw new Error(`${screen}: keyboard walk over ${stops.length} stops:\n  ${problems.join('\n  ')}`);
  expect(stops.length, `${screen}: Tab reaches the page's controls`).toBeGreaterThan(3);
  return stops;
}

/** Presses Tab from the top until `match` is focused; fails after `max` presses. */
export async function tabTo(
  page: Page,
  match: (stop: Stop) => boolean,
  what: string,
  max = 150,
): Promise<Stop> {
  await focusTop(page);
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const { stop } = await page.evaluate(inspectFocus);
    if (match(stop)) return stop;
  }
  throw new Error(`Tab never reached ${what}`);
}

const activeLabel = async (page: Page) => (await page.evaluate(inspectFocus)).stop.label;

/**
 * From the focused opener, Enter (or Space) opens a dialog: focus moves into it, Tab stays in it,
 * Escape closes it and focus returns to the opener.
 */
export async function dialogRoundTrip(
  page: Page,
  screen: string,
  key: 'Enter' | 'Space' = 'Enter',
): Promise<void> {
  const opener = await activeLabel(page);
  await page.keyboard.press(key);
  const dialog = page.locator('[role="dialog"]:visible');
  await dialog.first().waitFor();
  await expect
    .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))), {
      message: `${screen}: focus moves into the dialog opened by ${opener}`,
    })
    .toBe(true);
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))),
      `${screen}: Tab stays in the dialog`,
    ).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect.poll(() => dialog.count(), { message: `${screen}: Escape closes the dialog` }).toBe(0);
  await expect
    .poll(() => activeLabel(page), { message: `${screen}: focus returns to the dialog's opener` })
    .toBe(opener);
}

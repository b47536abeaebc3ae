import { Badge, DEFAULT_THEME, Loader, MantineProvider, mergeMantineTheme } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, theme, themeWithLabels } from './theme';

describe('theme', () => {
  it('lets a status badge show its whole label, wrapping instead of cutting it', () => {
    render(
      <MantineProvider theme={theme}>
        <div style={{ width: 40 }}>
          <Badge>Результаты опубликованы</Badge>
        </div>
      </MantineProvider>,
    );
    const label = screen.getByText('Результаты опубликованы');
    expect(getComputedStyle(label).whiteSpace).toBe('normal');
    expect(getComputedStyle(label).textOverflow).not.toBe('ellipsis');
    const root = label.closest('.mantine-Badge-root')!;
    expect(getComputedStyle(root).height).toBe('auto');
    expect(getComputedStyle(root).overflow).toBe('visible');
  });

  it('wraps a badge between words only, never inside a word (issue 23, item 6)', () => {
    render(
      <MantineProvider theme={theme}>
        <Badge>Результаты опубликованы</Badge>
      </MantineProvider>,
    );
    const style = getComputedStyle(screen.getByText('Результаты опубликованы'));
    // `anywhere` (or break-all) lets a narrow column cut «ОПУБЛИКО|ВАНЫ»; `normal` keeps words whole.
    expect(style.overflowWrap).toBe('normal');
    expect(style.wordBreak).toBe('normal');
    // The browser check (e2e/badges.e2e.test.ts) measures the line boxes at 390 and 1366 px.
  });
});

describe("the app's theme (themeWithLabels)", () => {
  const labels = themeWithLabels((key: string) => (key === 'app.loading' ? 'Загрузка…' : key));

  it('makes every loader a progress bar with a name, so its name is allowed (axe aria-prohibited-attr)', () => {
    render(
      <MantineProvider theme={labels}>
        <Loader size="sm" />
        <Loader aria-label="Открытые тесты" />
      </MantineProvider>,
    );
    const bars = screen.getAllByRole('progressbar');
    expect(bars.map((b) => b.getAttribute('aria-label'))).toEqual(['Загрузка…', 'Открытые тесты']);
    expect(bars.every((b) => b.classList.contains('mantine-Loader-root'))).toBe(true);
  });
});

describe('theme contrast (WCAG 2.2 AA, 4.5:1 for text)', () => {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme);
  const light = cssVariablesResolver(merged).light as Record<string, string>;
  const { gray } = DEFAULT_THEME.colors;

  it('dimmed text and placeholders read on white and on the light greys', () => {
    for (const bg of ['#ffffff', gray[0], gray[1]]) {
      expect(contrastRatio(light['--mantine-color-dimmed']!, bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(light['--mantine-color-placeholder']!, bg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it.each(Object.keys(merged.colors).filter((c) => c !== 'dark' && c !== 'gray'))(
    '%s: light badges, filled buttons and coloured text reach 4.5:1',
    (color) => {
      const shades = merged.colors[color]!;
      expect(contrastRatio(light[`--mantine-color-${color}-light-color`]!, shades[1])).toBeGreaterThanOrEqual(
        4.5,
      );
      expect(contrastRatio('#ffffff', light[`--mantine-color-${color}-filled`]!)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(light[`--mantine-color-${color}-text`]!, gray[0])).toBeGreaterThanOrEqual(4.5);
    },
  );
});

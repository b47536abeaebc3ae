import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, themeWithLabels } from './theme';

/** Tests run from web/ (npx vitest run in web/, or the workspace's script). */
const FILE = resolve(process.cwd(), 'src/components/ui/theme-vars.css');
const HEADER = `/*
 * The theme's CSS variables as Mantine's provider writes them (components/ui/theme.ts: the attesta colours, the
 * contrast fixes, headings, radius, fonts), for the participant's path, which draws with
 * components/lite and loads no MantineProvider (issue 24). Written by components/ui/theme-vars.test.tsx
 * (WRITE_THEME_VARS=1 npx vitest run src/components/ui/theme-vars.test.tsx, then prettier), which fails
 * when the theme and this file differ.
 */
`;

/** What MantineProvider puts in its <style> for the app's theme (the defaults aside). */
function providerVariables(): string {
  const { container, unmount } = render(
    <MantineProvider theme={themeWithLabels((k: string) => k)} cssVariablesResolver={cssVariablesResolver}>
      <span />
    </MantineProvider>,
    { container: document.body.appendChild(document.createElement('div')) },
  );
  const style = [...document.querySelectorAll('style[data-mantine-styles]')]
    .map((s) => s.textContent ?? '')
    .find((css) => css.includes('--mantine-color-attesta'));
  unmount();
  container.remove();
  if (!style) throw new Error('no variables written by MantineProvider');
  return style.replace(/;/g, ';\n').replace(/\{/g, '{\n').replace(/\}/g, '}\n');
}

describe('components/ui/theme-vars.css', () => {
  it("holds the theme's variables as MantineProvider writes them", () => {
    const css = HEADER + providerVariables();
    if (process.env.WRITE_THEME_VARS) writeFileSync(FILE, css);
    // Whitespace aside: prettier lays the file out its own way.
    const plain = (text: string) => text.replace(/\s+/g, '').replace(/"/g, "'");
    expect(plain(readFileSync(FILE, 'utf8'))).toBe(plain(css));
  });
});

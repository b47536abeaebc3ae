import { Badge, MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

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
});

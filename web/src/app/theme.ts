import { Badge, createTheme, type MantineColorsTuple } from '@mantine/core';

/** A calm blue-teal; shade 7 on white has contrast above 4.5:1 for text and buttons (WCAG AA). */
const attesta: MantineColorsTuple = [
  '#e8f4f8',
  '#d3e6ee',
  '#a3cbdc',
  '#70afca',
  '#4797bb',
  '#2e88b2',
  '#1e7fad',
  '#0f6c97',
  '#006088',
  '#005379',
];

export const theme = createTheme({
  primaryColor: 'attesta',
  primaryShade: 7,
  colors: { attesta },
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  respectReducedMotion: true,
  components: {
    // A badge says a status: it shows its whole label, wrapping in a narrow column, never «Выполн…».
    Badge: Badge.extend({
      styles: {
        root: { height: 'auto', minHeight: 'var(--badge-height)', maxWidth: '100%', overflow: 'visible' },
        label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', overflowWrap: 'anywhere' },
      },
    }),
  },
});

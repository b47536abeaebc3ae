import {
  type AlertProps,
  createTheme,
  darken,
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  type DrawerProps,
  type LoaderProps,
  luminance,
  type ModalProps,
  type PaginationProps,
  type TableScrollContainerProps,
  type CSSVariablesResolver,
  parseThemeColor,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';
import type { TFunction } from 'i18next';

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

const PRIMARY_SHADE = 7;
/** WCAG 2.2 AA, 1.4.3: normal-size text needs 4.5:1 against its background. */
const AA_TEXT = 4.5;

/** The WCAG contrast ratio of two colours (any format Mantine parses). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `color`, darkened in small steps until it reaches `ratio` against every one of `backgrounds`. */
export function withContrast(color: string, backgrounds: string[], ratio = AA_TEXT): string {
  let result = color;
  for (let step = 0; step < 40 && backgrounds.some((bg) => contrastRatio(result, bg) < ratio); step++) {
    result = darken(result, 0.04);
  }
  return result;
}

const WHITE = '#ffffff';
const { gray } = DEFAULT_THEME.colors;
/** Backgrounds text is put on: white, striped table rows, the public pages' grey. */
const SURFACES = [WHITE, gray[0], gray[1]];

/**
 * Contrast fixed once, in the theme, not per screen. Mantine's defaults put dimmed text and
 * placeholders in gray.6/gray.5 (3.3:1 and 2:1 on white), light badges' labels in shade 9 on
 * shade 1 (green: 3.8:1), and filled buttons and badges in shade 7 under white text (green: 2.7:1).
 * For every colour of the theme the resolver keeps Mantine's shade where it reaches 4.5:1 and
 * darkens it just enough where it does not; dimmed text and placeholders get a darker grey.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': withContrast(gray[6], SURFACES),
    '--mantine-color-placeholder': withContrast(gray[6], SURFACES),
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'dark' || !shades) continue;
    const filled = withContrast(shades[PRIMARY_SHADE]!, [WHITE]);
    const text = withContrast(shades[PRIMARY_SHADE]!, SURFACES);
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.12);
    light[`--mantine-color-${name}-text`] = text;
    light[`--mantine-color-${name}-outline`] = text;
    light[`--mantine-color-${name}-light-color`] = withContrast(shades[9]!, [shades[1]!, shades[2]!]);
  }
  return { variables: {}, light, dark: {} };
};

/**
 * A subtle or outline button given an explicit shade (`color="gray.8"`) draws its text in that
 * shade capped at 6 by Mantine — too light for most colours; it is darkened to 4.5:1 here.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (
    (input.variant === 'subtle' || input.variant === 'outline') &&
    parsed.isThemeColor &&
    parsed.shade !== undefined
  ) {
    const text = withContrast(input.theme.colors[parsed.color]![Math.min(parsed.shade, 6)]!, SURFACES);
    return {
      ...colors,
      color: text,
      border: input.variant === 'outline' ? `1px solid ${text}` : colors.border,
    };
  }
  return colors;
};

const baseTheme = createTheme({
  primaryColor: 'attesta',
  primaryShade: PRIMARY_SHADE,
  colors: { attesta },
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  respectReducedMotion: true,
  variantColorResolver,
  components: {
    // A badge says a status: it shows its whole label, never «Выполн…». In a narrow column it wraps
    // between words, never inside one («ОПУБЛИКО-ВАНЫ»): its narrowest width is its longest word, so
    // a table column or a flex row keeps at least that much room for it.
    // A plain entry, not Badge.extend(): that would bring the component into the participant's
    // shell, which has no Mantine badge (issue 24).
    Badge: {
      styles: {
        root: { height: 'auto', minHeight: 'var(--badge-height)', maxWidth: '100%', overflow: 'visible' },
        label: {
          whiteSpace: 'normal',
          overflow: 'visible',
          textOverflow: 'clip',
          overflowWrap: 'normal',
          wordBreak: 'normal',
          hyphens: 'manual',
        },
      },
    },
  },
});

/** The theme without the translated names of icon buttons (tests that render a lone component). */
export const theme = baseTheme;

type A11yKey =
  | 'app.loading'
  | 'app.a11y.close'
  | 'app.a11y.scrollTable'
  | 'app.a11y.pagination.first'
  | 'app.a11y.pagination.previous'
  | 'app.a11y.pagination.next'
  | 'app.a11y.pagination.last';

/**
 * The theme of the app: every icon-only button Mantine draws by itself (a dialog's or a
 * notification's close cross, the pagination arrows) gets a name in the user's language, so no
 * screen has to remember it (axe: button-name).
 */
export function themeWithLabels(t: TFunction | ((key: A11yKey) => string)) {
  const label = t as (key: A11yKey) => string;
  const close = { 'aria-label': label('app.a11y.close') };
  const control = {
    first: { 'aria-label': label('app.a11y.pagination.first') },
    previous: { 'aria-label': label('app.a11y.pagination.previous') },
    next: { 'aria-label': label('app.a11y.pagination.next') },
    last: { 'aria-label': label('app.a11y.pagination.last') },
  };
  return createTheme({
    ...baseTheme,
    components: {
      ...baseTheme.components,
      // Plain entries, not Modal.extend(): that would bring the overlays (staff pages only; the
      // participant's path has its own, components/lite) into the participant's shell.
      Modal: { defaultProps: { closeButtonProps: close } satisfies Partial<ModalProps> },
      Drawer: { defaultProps: { closeButtonProps: close } satisfies Partial<DrawerProps> },
      // A dialog's title bar is a <header>, which axe takes for a second banner of the page
      // (landmark-unique); the dialog names itself by its title already.
      ModalHeader: { defaultProps: { component: 'div' } },
      DrawerHeader: { defaultProps: { component: 'div' } },
      // Plain entries, not Alert.extend() / Loader.extend(): that would bring the components into the
      // participant's shell, whose alerts and loaders are components/lite's (issue 24).
      Alert: { defaultProps: { closeButtonLabel: close['aria-label'] } satisfies Partial<AlertProps> },
      // A plain entry, not Pagination.extend(): that would bring the component (staff tables only)
      // into the participant's shell.
      Pagination: {
        defaultProps: {
          getControlProps: (kind: keyof typeof control) => control[kind],
        } satisfies Partial<PaginationProps>,
      },
      // A loader is a span: a name on it alone is an ARIA attribute its (no) role forbids (axe
      // aria-prohibited-attr, on every panel still loading). It is an indeterminate progress bar,
      // named «Загрузка…» unless a screen names it itself.
      Loader: {
        defaultProps: { role: 'progressbar', 'aria-label': label('app.loading') } as Partial<LoaderProps>,
      },
      // A wide table scrolls sideways in its own box on a narrow screen or at 200 % zoom (WCAG
      // 1.4.10); the box is a native scroller that takes keyboard focus, so arrow keys scroll it
      // (2.1.1), and is named. A table with a caption (DataTable) names it by the caption instead.
      // A plain entry, not Table.ScrollContainer.extend(): that would bring Mantine's Table into the
      // participant's shell, whose tables are components/lite's (issue 24).
      TableScrollContainer: {
        defaultProps: {
          type: 'native',
          tabIndex: 0,
          role: 'group',
          'aria-label': label('app.a11y.scrollTable'),
        } as Partial<TableScrollContainerProps>,
      },
    },
  });
}

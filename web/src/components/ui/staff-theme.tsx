import { MantineProvider } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cssVariablesResolver, themeWithLabels } from './theme';

/**
 * Mantine with the app's theme, whose icon buttons are named in the current language: around every
 * lazily loaded page (components/ui/lazy-page.ts) and the feedback dialog — what staff screens draw
 * with Mantine. The participant's path (login, start page, runner) is components/lite's and never
 * loads Mantine's provider (issue 24); the theme's CSS variables it needs are components/ui/theme-vars.css.
 */
export function StaffTheme({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new theme only when the language changes
  const theme = useMemo(() => themeWithLabels(t), [i18n.language]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}

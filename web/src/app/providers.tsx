// Mantine's sheets are in `@layer mantine`: the build links the participant's shell's share of them
// from index.html (web/vite.config.ts) and lazily loaded pages bring the rest (components/ui/lazy-page.ts).
import './global.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useMemo, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Toaster } from '../components/lite/toaster';
import { useDialogFocusReturn } from './dialog-focus-return';
import { cssVariablesResolver, themeWithLabels } from './theme';

// The dev server has no bundle to pick the shell's sheets from: it loads all of them.
if (import.meta.env.DEV) void import('../components/ui/all-styles');

interface ProvidersProps {
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
}

export function AppProviders({ queryClient, i18n, children }: ProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          <Toaster />
          {children}
        </ThemeProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

/** Mantine with the app's theme, whose icon buttons are named in the current language. */
function ThemeProvider({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new theme only when the language changes
  const theme = useMemo(() => themeWithLabels(t), [i18n.language]);
  useDialogFocusReturn();
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}

// Mantine's sheets are in `@layer mantine`: the build links the participant's shell's share of them
// (its base sheets: the participant's path draws with components/lite) from index.html
// (web/vite.config.ts) and lazily loaded pages bring the rest (components/ui/lazy-page.ts), with
// Mantine's provider (components/ui/staff-theme.tsx). The theme's variables are a static sheet.
import './global.css';
import '../components/ui/theme-vars.css';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Toaster } from '../components/lite/toaster';
import { useDialogFocusReturn } from './dialog-focus-return';

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
        <FocusReturn />
        <Toaster />
        {children}
      </QueryClientProvider>
    </I18nextProvider>
  );
}

/** Focus back to a dialog's opener when the dialog leaves the page (app/dialog-focus-return.ts). */
function FocusReturn() {
  useDialogFocusReturn();
  return null;
}

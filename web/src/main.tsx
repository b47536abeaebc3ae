import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { applyDeviceClasses, detectDevice } from './lib/device';
import { currentLanguage, i18n, loadLanguage } from './lib/i18n';
import { createQueryClient } from './lib/query-client';
import { attachTouchClick, shouldUseTouchClick } from './lib/touch-click';

// Device classes go on <html> before the first paint so CSS can rely on them from the start.
const device = detectDevice();
applyDeviceClasses(device);
if (shouldUseTouchClick(device)) attachTouchClick(document);

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

/** The mounted app (tests unmount it so no timer outlives their page). */
export const root = createRoot(document.getElementById('root')!);
const render = () =>
  root.render(
    <StrictMode>
      <AppProviders queryClient={queryClient} i18n={i18n}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
// The saved language's messages first (English is a chunk of its own); if they cannot be loaded the
// app opens in Russian rather than not at all.
void loadLanguage(currentLanguage()).then(render, render);

import type { Accommodations } from '@attesta/contract';
import { useEffect, useState } from 'react';
import { initialReaderSettings, ROOT_FONT_SIZE, type ReaderSettings } from '../lib/reader-settings';

/**
 * The runner's reading settings, starting from the participant's accommodations profile. While the
 * runner is open the text size is the page's root font size and the dark theme Mantine's colour
 * scheme, the `data-mantine-color-scheme` of <html> its variables follow (portalled dialogs follow
 * both; the participant's path has no Mantine provider to ask, issue 24); leaving the runner puts
 * both back.
 */
const COLOR_SCHEME = 'data-mantine-color-scheme';

export function useReaderSettings(profile: Accommodations | null | undefined) {
  const [settings, setSettings] = useState<ReaderSettings>(() => initialReaderSettings(profile));

  useEffect(() => {
    const root = document.documentElement;
    const before = root.style.fontSize;
    root.style.fontSize = ROOT_FONT_SIZE[settings.textSize];
    return () => {
      root.style.fontSize = before;
    };
  }, [settings.textSize]);

  // The portal has no colour choice of its own: leaving the dark runner (a reload too) goes back to
  // the app's default scheme, never to a dark one a reload mid-sitting left stored.
  const dark = settings.theme === 'dark';
  useEffect(() => {
    const root = document.documentElement;
    const light = () => root.setAttribute(COLOR_SCHEME, 'light');
    if (!dark) return light();
    root.setAttribute(COLOR_SCHEME, 'dark');
    return light;
  }, [dark]);

  const change = (patch: Partial<ReaderSettings>) => setSettings((s) => ({ ...s, ...patch }));
  return { settings, change };
}

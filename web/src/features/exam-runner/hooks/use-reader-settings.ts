import type { Accommodations } from '@attesta/contract';
import { useMantineColorScheme } from '@mantine/core';
import { useEffect, useState } from 'react';
import { initialReaderSettings, ROOT_FONT_SIZE, type ReaderSettings } from '../lib/reader-settings';

/**
 * The runner's reading settings, starting from the participant's accommodations profile. While the
 * runner is open the text size is the page's root font size and the dark theme Mantine's colour
 * scheme (portalled dialogs follow both); leaving the runner puts both back.
 */
export function useReaderSettings(profile: Accommodations | null | undefined) {
  const [settings, setSettings] = useState<ReaderSettings>(() => initialReaderSettings(profile));
  const { setColorScheme, clearColorScheme } = useMantineColorScheme();

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
    if (!dark) {
      clearColorScheme();
      return;
    }
    setColorScheme('dark');
    return () => clearColorScheme();
  }, [dark, setColorScheme, clearColorScheme]);

  const change = (patch: Partial<ReaderSettings>) => setSettings((s) => ({ ...s, ...patch }));
  return { settings, change };
}

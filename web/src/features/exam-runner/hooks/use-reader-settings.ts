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
  const { colorScheme, setColorScheme } = useMantineColorScheme();

  useEffect(() => {
    const root = document.documentElement;
    const before = root.style.fontSize;
    root.style.fontSize = ROOT_FONT_SIZE[settings.textSize];
    return () => {
      root.style.fontSize = before;
    };
  }, [settings.textSize]);

  const dark = settings.theme === 'dark';
  useEffect(() => {
    if (!dark) return;
    const before = colorScheme;
    setColorScheme('dark');
    return () => setColorScheme(before);
    // Only the runner's own choice switches the scheme; `colorScheme` is read once, when it does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dark]);

  const change = (patch: Partial<ReaderSettings>) => setSettings((s) => ({ ...s, ...patch }));
  return { settings, change };
}

/**
 * How the runner shows the work to its reader (docs/accommodations.md): text size, colours and the
 * reading ruler. A participant's accommodations profile sets where they start; the runner's reading
 * aids menu lets anyone change them during the sitting. Read-aloud is the profile's alone.
 */
import type { Accommodations, AccommodationTheme } from '@attesta/contract';

export const TEXT_SIZES = ['normal', 'large', 'larger'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

/** The root font size of each text size: every rem of the page grows with it. */
export const ROOT_FONT_SIZE: Record<TextSize, string> = { normal: '', large: '125%', larger: '150%' };

/** The magnifier: how much the task area is enlarged, in per cent (docs/accommodations.md). */
export const ZOOM_LEVELS = [100, 125, 150, 175, 200] as const;
export type ZoomLevel = (typeof ZOOM_LEVELS)[number];

export interface ReaderSettings {
  textSize: TextSize;
  theme: AccommodationTheme;
  lineReader: boolean;
  zoom: ZoomLevel;
}

export function initialReaderSettings(profile: Accommodations | null | undefined): ReaderSettings {
  return {
    textSize: profile?.largeText ? 'large' : 'normal',
    theme: profile?.theme ?? 'default',
    lineReader: profile?.lineReader ?? false,
    zoom: profile?.magnifier ? 150 : 100,
  };
}

/** The classes the runner's root takes for the settings (styled in app/global.css). */
export function readerClassNames(s: ReaderSettings): string {
  return [
    s.textSize !== 'normal' && 'runner--large-text',
    s.theme === 'high_contrast' && 'runner--high-contrast',
    s.theme === 'dark' && 'runner--dark',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The browser's speech synthesis, where it has one. */
export function speechSynthesisOf(): SpeechSynthesis | null {
  return typeof window !== 'undefined' &&
    'speechSynthesis' in window &&
    typeof SpeechSynthesisUtterance !== 'undefined'
    ? window.speechSynthesis
    : null;
}

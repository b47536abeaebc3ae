/**
 * The runner's reading aids (issue 14, item 2), for everyone: text size, colours and the reading
 * ruler, in a popover of the runner's header. An accommodations profile only sets where they start.
 */
import { ACCOMMODATION_THEMES, type AccommodationTheme } from '@attesta/contract';
import { Button, Stack } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { Segmented, Switch } from '../../../components/lite/choice';
import { Popover } from '../../../components/lite/popover';
import {
  TEXT_SIZES,
  ZOOM_LEVELS,
  type ReaderSettings,
  type TextSize,
  type ZoomLevel,
} from '../lib/reader-settings';

const SIZE_LABEL = {
  normal: 'runner.reader.sizeNormal',
  large: 'runner.reader.sizeLarge',
  larger: 'runner.reader.sizeLarger',
} as const satisfies Record<TextSize, string>;
const THEME_LABEL = {
  default: 'runner.reader.themeDefault',
  high_contrast: 'runner.reader.themeHighContrast',
  dark: 'runner.reader.themeDark',
} as const satisfies Record<AccommodationTheme, string>;

interface ReaderToolsProps {
  settings: ReaderSettings;
  onChange: (patch: Partial<ReaderSettings>) => void;
}

export function ReaderTools({ settings, onChange }: ReaderToolsProps) {
  const { t } = useTranslation();
  return (
    <Popover
      width={300}
      target={(props) => (
        <Button variant="default" {...props} data-testid="reader-tools">
          Aa {t('runner.reader.tools')}
        </Button>
      )}
      panelProps={{ 'data-testid': 'reader-tools-panel' }}
    >
      <Stack gap="sm">
        <Segmented
          legend={t('runner.reader.textSize')}
          value={settings.textSize}
          onChange={(v) => onChange({ textSize: v })}
          data={TEXT_SIZES.map((s) => ({ value: s, label: t(SIZE_LABEL[s]) }))}
          data-testid="reader-text-size"
        />
        <Segmented
          legend={t('runner.reader.zoom')}
          size="xs"
          value={String(settings.zoom)}
          onChange={(v) => onChange({ zoom: Number(v) as ZoomLevel })}
          data={ZOOM_LEVELS.map((z) => ({ value: String(z), label: `${z} %` }))}
          data-testid="reader-zoom"
        />
        <Segmented
          legend={t('runner.reader.contrast')}
          orientation="vertical"
          value={settings.theme}
          onChange={(v) => onChange({ theme: v })}
          data={ACCOMMODATION_THEMES.map((s) => ({ value: s, label: t(THEME_LABEL[s]) }))}
          data-testid="reader-theme"
        />
        <Switch
          label={t('runner.reader.lineReader')}
          checked={settings.lineReader}
          onChange={(e) => onChange({ lineReader: e.currentTarget.checked })}
          data-testid="reader-line"
        />
      </Stack>
    </Popover>
  );
}

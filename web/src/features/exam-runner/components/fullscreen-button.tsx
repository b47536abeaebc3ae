import { Button } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { useFullscreen } from '../hooks/use-fullscreen';

/**
 * «Во весь экран» / «Выйти из полноэкранного режима»: a real button (Enter, Space), pressed while
 * the page is full screen. Absent where the browser has no Fullscreen API.
 */
export function FullscreenButton({ fullWidth = false }: { fullWidth?: boolean }) {
  const { t } = useTranslation();
  const { supported, active, toggle } = useFullscreen();
  if (!supported) return null;
  return (
    <Button
      variant="default"
      onClick={() => void toggle()}
      aria-pressed={active}
      fullWidth={fullWidth}
      data-testid="fullscreen-toggle"
    >
      {active ? t('runner.fullscreen.exit') : t('runner.fullscreen.enter')}
    </Button>
  );
}

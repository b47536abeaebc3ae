/**
 * «Перерыв»: a rest break of the participant's accommodations profile (docs/accommodations.md).
 * Shown only when the profile gives rest break minutes; off once they are used up. The break
 * covers the tasks (the pause overlay) and the clock stands still until it ends.
 */
import { Button } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { Tooltip } from '../../../components/lite/tooltip';

export function RestBreakButton({
  secondsLeft,
  busy,
  onStart,
}: {
  /** Rest break time left; null: the profile gives none (nothing is shown). */
  secondsLeft: number | null;
  busy: boolean;
  onStart: () => void;
}) {
  const { t } = useTranslation();
  if (secondsLeft === null) return null;
  const none = secondsLeft <= 0;
  const hint = none
    ? t('runner.restBreak.usedUp')
    : t('runner.restBreak.left', { minutes: Math.max(1, Math.floor(secondsLeft / 60)) });
  return (
    <Tooltip label={hint}>
      <Button variant="default" onClick={onStart} loading={busy} disabled={none} data-testid="rest-break">
        {t('runner.restBreak.button')}
      </Button>
    </Tooltip>
  );
}

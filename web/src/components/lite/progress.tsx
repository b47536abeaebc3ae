/**
 * A thin progress bar without Mantine's Progress (issue 24): `value` in percent, or, with
 * `indeterminate`, a moving bar. Given a `label` it is a named progressbar with its value; without
 * one it is decoration (aria-hidden) beside a text that says the same.
 */
import type { CSSProperties } from 'react';
import './progress.css';

interface ProgressProps {
  value?: number;
  indeterminate?: boolean;
  /** Pinned to the top of the window (the router's loading bar). */
  fixedTop?: boolean;
  label?: string;
  'data-testid'?: string;
}

export function Progress({
  value = 0,
  indeterminate = false,
  fixedTop = false,
  label,
  ...rest
}: ProgressProps) {
  const clamped = Math.min(100, Math.max(0, value));
  const a11y = !label
    ? { 'aria-hidden': true }
    : {
        role: 'progressbar',
        'aria-valuemin': 0,
        'aria-valuemax': 100,
        'aria-valuenow': indeterminate ? undefined : Math.round(clamped),
        'aria-label': label,
      };
  return (
    <div
      className="lite-progress"
      data-indeterminate={indeterminate || undefined}
      data-fixed={fixedTop || undefined}
      data-testid={rest['data-testid']}
      {...a11y}
    >
      <div
        className="lite-progress__bar"
        style={{ '--lite-progress': `${indeterminate ? 100 : clamped}%` } as CSSProperties}
      />
    </div>
  );
}

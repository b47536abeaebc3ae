/**
 * A tooltip of our own for the participant's path (issue 24: no Mantine Tooltip or floating-ui in
 * the shell): a short text shown under an element while it is hovered or focused, which also
 * describes it (`aria-describedby`, so a screen reader says it without the hover). Escape hides it
 * until the pointer or focus leaves (WCAG 1.4.13); the text stays while the pointer is over it.
 * Plain CSS places it; `align` picks the edge it lines up with.
 */
import { cloneElement, useId, useState, type ReactElement, type ReactNode } from 'react';
import './tooltip.css';

export interface TooltipProps {
  label: ReactNode;
  /** One element; it gets `aria-describedby` (added to its own). */
  children: ReactElement<{ 'aria-describedby'?: string }>;
  /** No tooltip, the element alone. */
  disabled?: boolean;
  align?: 'start' | 'center' | 'end';
}

export function Tooltip({ label, children, disabled, align = 'center' }: TooltipProps) {
  const id = useId();
  const [dismissed, setDismissed] = useState(false);
  if (disabled || label === undefined || label === null || label === '') return children;
  const own = children.props['aria-describedby'];
  return (
    <span
      className="lite-tooltip-wrap"
      data-dismissed={dismissed || undefined}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !dismissed) {
          setDismissed(true);
          event.stopPropagation();
        }
      }}
      onMouseLeave={() => setDismissed(false)}
      onBlur={() => setDismissed(false)}
    >
      {cloneElement(children, { 'aria-describedby': own ? `${own} ${id}` : id })}
      <span role="tooltip" id={id} className="lite-tooltip" data-align={align}>
        {label}
      </span>
    </span>
  );
}

/**
 * A radio group that looks like Mantine's SegmentedControl, without it (issue 24). Native radio
 * inputs (visually hidden, one name per group) carry the semantics and the keyboard: Tab enters on
 * the checked option, arrow keys move and choose; each option's label is the visible segment.
 */
import { useId, type ReactNode } from 'react';
import './segmented.css';

export interface SegmentedOption<T extends string> {
  value: T;
  label: ReactNode;
}

interface SegmentedProps<T extends string> {
  /** The group's accessible name. */
  label: string;
  options: SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  size?: 'xs' | 'sm';
  'data-testid'?: string;
}

export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  size = 'sm',
  ...rest
}: SegmentedProps<T>) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className="lite-segmented"
      data-size={size}
      data-testid={rest['data-testid']}
    >
      {options.map((option) => {
        const id = `${name}-${option.value}`;
        return (
          <span key={option.value} className="lite-segmented__item">
            <input
              type="radio"
              className="lite-segmented__input"
              id={id}
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
            />
            <label htmlFor={id} className="lite-segmented__label">
              {option.label}
            </label>
          </span>
        );
      })}
    </div>
  );
}

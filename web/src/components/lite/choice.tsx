/**
 * Native choices drawn like Mantine's (issue 24: the participant's path without Mantine's
 * SegmentedControl and Switch): `Segmented`, a radio group in one row (or column) of segments,
 * named by its legend; and `Switch`, a checkbox with `role="switch"` drawn as a switch. Both are
 * the browser's own inputs, so keys, forms and screen readers work as they always do.
 */
import { useId, type ChangeEvent, type ReactNode } from 'react';
import './choice.css';

export interface SegmentedProps<V extends string> {
  legend: ReactNode;
  value: V;
  onChange: (value: V) => void;
  data: readonly { value: V; label: ReactNode }[];
  orientation?: 'horizontal' | 'vertical';
  size?: 'xs' | 'sm';
  'data-testid'?: string;
}

export function Segmented<V extends string>({
  legend,
  value,
  onChange,
  data,
  orientation = 'horizontal',
  size = 'sm',
  'data-testid': testId,
}: SegmentedProps<V>) {
  const name = useId();
  return (
    <fieldset className="lite-segmented" data-orientation={orientation} data-size={size} data-testid={testId}>
      <legend className="lite-legend">{legend}</legend>
      <div className="lite-segments">
        {data.map((item) => (
          <label key={item.value} className="lite-segment" data-active={item.value === value || undefined}>
            <input
              type="radio"
              name={name}
              value={item.value}
              checked={item.value === value}
              onChange={() => onChange(item.value)}
            />
            <span>{item.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export interface SwitchProps {
  label: ReactNode;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  'data-testid'?: string;
}

export function Switch({ label, checked, onChange, 'data-testid': testId }: SwitchProps) {
  const id = useId();
  return (
    <div className="lite-switch" data-testid={testId}>
      <input id={id} type="checkbox" role="switch" checked={checked} onChange={onChange} />
      <label htmlFor={id}>
        <span className="lite-switch-track" aria-hidden="true" />
        {label}
      </label>
    </div>
  );
}

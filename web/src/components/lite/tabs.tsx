/**
 * Tabs without Mantine's Tabs (issue 24: the participant's path stays light). WAI-ARIA tabs: a
 * tablist of buttons with roving tabindex (only the selected tab is in the Tab order), arrow keys,
 * Home and End move and select (automatic activation), each tab names and controls its panel.
 * Only the selected panel is rendered.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import './tabs.css';

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
  panel: ReactNode;
  testId?: string;
}

interface TabsProps<T extends string> {
  /** The tablist's accessible name. */
  label: string;
  tabs: TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Tabs share the row's width equally. */
  grow?: boolean;
}

export function Tabs<T extends string>({ label, tabs, value, onChange, grow = false }: TabsProps<T>) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const selected = Math.max(
    0,
    tabs.findIndex((tab) => tab.value === value),
  );
  const tabId = (i: number) => `${base}-tab-${i}`;
  const panelId = (i: number) => `${base}-panel-${i}`;

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const next = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    refs.current[next]?.focus();
    onChange(tabs[next]!.value);
  };

  const current = tabs[selected];
  return (
    <div className="lite-tabs">
      <div
        role="tablist"
        aria-label={label}
        aria-orientation="horizontal"
        className="lite-tabs__list"
        data-grow={grow || undefined}
      >
        {tabs.map((tab, i) => (
          <button
            key={tab.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={tabId(i)}
            aria-selected={i === selected}
            aria-controls={panelId(i)}
            tabIndex={i === selected ? 0 : -1}
            className="lite-tabs__tab"
            data-testid={tab.testId}
            onClick={() => onChange(tab.value)}
            onKeyDown={(event) => onKeyDown(event, i)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={panelId(selected)}
          aria-labelledby={tabId(selected)}
          className="lite-tabs__panel"
        >
          {current.panel}
        </div>
      )}
    </div>
  );
}

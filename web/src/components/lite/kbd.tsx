/** Keys and raw values in the theme's look without Mantine's Kbd and Code (issue 24). */
import type { ReactNode } from 'react';
import './kbd.css';

/** A key to press. */
export function Kbd({ children }: { children: ReactNode }) {
  return <kbd className="lite-kbd">{children}</kbd>;
}

/** A raw value (an error code, a status) as a block that wraps anywhere. */
export function Code({ children }: { children: ReactNode }) {
  return <code className="lite-code">{children}</code>;
}

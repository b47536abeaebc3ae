/**
 * A light badge (a short label such as the current role) without Mantine's Badge (issue 24): the
 * theme's light variant of its primary colour; the label wraps between words, never inside one.
 */
import type { ReactNode } from 'react';
import './badge.css';

export function Badge({ children, ...rest }: { children: ReactNode; 'data-testid'?: string }) {
  return (
    <span className="lite-badge" data-testid={rest['data-testid']}>
      {children}
    </span>
  );
}

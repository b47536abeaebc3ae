/**
 * A plain table in the theme's look, without Mantine's Table (issue 24): rows separated by a line,
 * `vertical` for label–value rows (the label a row header in a tinted column). Staff pages keep
 * Mantine's Table and DataTable; this is for the participant's and public pages.
 */
import type { ComponentPropsWithoutRef } from 'react';
import './table.css';

interface TableProps extends ComponentPropsWithoutRef<'table'> {
  variant?: 'default' | 'vertical';
  /** Columns keep the widths they are given (`table-layout: fixed`). */
  fixed?: boolean;
  bordered?: boolean;
  compact?: boolean;
}

export function Table({ variant = 'default', fixed, bordered, compact, className, ...rest }: TableProps) {
  return (
    <table
      className={['lite-table', className].filter(Boolean).join(' ')}
      data-variant={variant}
      data-fixed={fixed || undefined}
      data-bordered={bordered || undefined}
      data-compact={compact || undefined}
      {...rest}
    />
  );
}

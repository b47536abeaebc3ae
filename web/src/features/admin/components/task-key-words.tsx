/**
 * A task's key, scoring rule or rubric in words for staff: every field by its name in the
 * reader's language, yes/no for switches, lists for lists — never the stored JSON.
 */
import { List, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useAdminT } from '../i18n';

/** Keys built from the stored field names: looked up loosely, the name itself when there is no word. */
type T = (key: string, options?: Record<string, unknown>) => string;

/** Field values that are words themselves (the scoring method, the tolerance mode). */
const WORDED_VALUES = new Set(['method', 'toleranceMode']);

function label(key: string, t: T): string {
  const worded = t(`content.keyWords.field.${key}`, { defaultValue: '' });
  return worded || key;
}

function primitive(value: unknown, t: T, key?: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('content.keyWords.yes') : t('content.keyWords.no');
  if (key && WORDED_VALUES.has(key) && typeof value === 'string')
    return t(`content.keyWords.value.${value}`, { defaultValue: '' }) || value;
  return String(value);
}

const isPrimitive = (v: unknown) => v === null || typeof v !== 'object';

function render(value: unknown, t: T, key?: string): ReactNode {
  if (isPrimitive(value)) return primitive(value, t, key);
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    // A pair (matching, association) reads as «a → b».
    if (value.every(isPrimitive))
      return value.map((v) => primitive(v, t)).join(key === 'pair' ? ' → ' : ', ');
    return (
      <List size="sm" type="ordered">
        {value.map((item, i) => (
          <List.Item key={i}>{render(item, t, Array.isArray(item) ? 'pair' : undefined)}</List.Item>
        ))}
      </List>
    );
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '—';
  return (
    <List size="sm" listStyleType="none" withPadding={false}>
      {entries.map(([k, v]) => (
        <List.Item key={k}>
          <Text span size="sm" c="dimmed">
            {label(k, t)}:
          </Text>{' '}
          {render(v, t, k)}
        </List.Item>
      ))}
    </List>
  );
}

export function TaskKeyWords({ value, testId }: { value: unknown; testId?: string }) {
  const t = useAdminT() as T;
  return (
    <div data-testid={testId} className="task-key-words">
      {isPrimitive(value) ? <Text size="sm">{primitive(value, t)}</Text> : render(value, t)}
    </div>
  );
}

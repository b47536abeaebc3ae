import {
  auditRefKey,
  refKindOfEntity,
  refKindOfKey,
  type AuditEvent,
  type AuditRefKind,
} from '@attesta/contract';
import { Anchor, Stack, Text } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDisplayDate, formatDisplayDateTime, formatNumber, parsePlainDate } from '../../../lib/format';
import type { AuditTexts } from '../audit-i18n';

/**
 * An audit row's details in words (issue 23, item 6): each key under its label, each id as the
 * name of its record (a link where the record has a page), each code in words, dates as
 * дд.мм.гггг — never JSON, codes or database ids.
 */

/** The pages a named record opens; the other kinds are named without a link. */
const PAGES: Partial<Record<AuditRefKind, (id: string) => string>> = {
  diagnostic: (id) => `/admin/diagnostics/${id}`,
  school: (id) => `/admin/schools/${id}`,
  subject_test: (id) => `/admin/content/tests/${id}`,
  task: (id) => `/admin/content/tasks/${id}`,
};

/** Keys whose string values are codes (statuses, roles, ways), shown through the screen's words. */
const CODE_KEYS = new Set([
  'status',
  'from',
  'to',
  'via',
  'by',
  'format',
  'kind',
  'role',
  'roles',
  'over',
  'requested',
  'how',
  'ownerType',
  'source',
  'method',
  'place',
  'scope',
  'answerMode',
]);

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const asId = (v: unknown): string | null =>
  (typeof v === 'number' && Number.isInteger(v) && v > 0) || (typeof v === 'string' && /^\d+$/.test(v))
    ? String(v)
    : null;

interface Words {
  texts: AuditTexts;
  lang: 'ru' | 'en';
  refs: Record<string, string>;
}

/** One record by its name, linked where it has a page; a record without a name is «удалена». */
function named(kind: AuditRefKind, id: string, w: Words): { text: string; node: ReactNode } {
  const name = w.refs[auditRefKey(kind, id)];
  if (name === undefined) return { text: w.texts.t('page.gone'), node: w.texts.t('page.gone') };
  const page = PAGES[kind];
  return {
    text: name,
    node: page ? (
      <Anchor component={Link} to={page(id)} size="xs">
        {name}
      </Anchor>
    ) : (
      name
    ),
  };
}

function refValue(kind: AuditRefKind, value: unknown, w: Words): { text: string; node: ReactNode } {
  const ids = (Array.isArray(value) ? value : [value]).map(asId).filter((id): id is string => id !== null);
  if (!ids.length) return { text: '—', node: '—' };
  const known = ids
    .filter((id) => w.refs[auditRefKey(kind, id)] !== undefined)
    .map((id) => named(kind, id, w));
  const gone = ids.length - known.length;
  const parts = [...known];
  if (gone) {
    const text = gone === 1 ? w.texts.t('page.gone') : w.texts.t('page.goneMany', { count: gone });
    parts.push({ text, node: text });
  }
  return {
    text: parts.map((p) => p.text).join(', '),
    node: parts.map((p, i) => (
      <Fragment key={i}>
        {i > 0 && ', '}
        {p.node}
      </Fragment>
    )),
  };
}

/** A plain value of `key` in words: yes/no, numbers, dates, codes, lists and nested objects. */
function plainValue(key: string, value: unknown, w: Words): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return w.texts.t(value ? 'page.yes' : 'page.no');
  if (typeof value === 'number') return formatNumber(value, w.lang);
  if (typeof value === 'string') {
    if (ISO_DAY.test(value)) {
      const day = parsePlainDate(value);
      return day ? formatDisplayDate(day) : value;
    }
    if (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value)))
      return formatDisplayDateTime(new Date(value));
    if (CODE_KEYS.has(key)) return w.texts.code(value) ?? w.texts.t('page.unknownValue');
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => plainValue(key, v, w)).join(', ');
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${label(k, w)}: ${entryValue(k, v, w).text}`)
    .join('; ');
}

const label = (key: string, w: Words) => w.texts.detailKey(key, refKindOfKey(key));

/** The value of one detail: names for ids, «было → стало» for a change, words for the rest. */
function entryValue(key: string, value: unknown, w: Words): { text: string; node: ReactNode } {
  const kind = refKindOfKey(key);
  const isChange =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    ('from' in value || 'to' in value);
  if (isChange) {
    const { from, to } = value as { from?: unknown; to?: unknown };
    const a = entryValue(key, from, w);
    const b = entryValue(key, to, w);
    return {
      text: w.texts.t('page.fromTo', { from: a.text, to: b.text }),
      node: (
        <>
          {a.node} → {b.node}
        </>
      ),
    };
  }
  if (kind) return refValue(kind, value, w);
  // A changes/before/after object whose fields are themselves details.
  const text = plainValue(key, value, w);
  return { text, node: text };
}

/** The lines of an event's details: `[label, value]`, the screen's and the CSV's one source. */
export function detailLines(event: AuditEvent, w: Words): { label: string; text: string; node: ReactNode }[] {
  const details = event.details ?? {};
  return Object.entries(details).flatMap(([key, value]) => {
    // `changes: {field: {from, to}}` reads best as one line per changed field.
    if (key === 'changes' && value && typeof value === 'object' && !Array.isArray(value))
      return Object.entries(value as Record<string, unknown>).map(([field, change]) => {
        const v = entryValue(field, change, w);
        return { label: label(field, w), ...v };
      });
    return [{ label: label(key, w), ...entryValue(key, value, w) }];
  });
}

export function AuditDetails({ event, words }: { event: AuditEvent; words: Words }) {
  const lines = detailLines(event, words);
  if (!lines.length) return <>—</>;
  return (
    <Stack gap={0}>
      {lines.map((line, i) => (
        <Text key={i} size="xs">
          {line.label}: {line.node}
        </Text>
      ))}
    </Stack>
  );
}

/** The record acted on, by name (a link where it has a page): «Диагностика: ВПР по математике». */
export function auditRecord(event: AuditEvent, w: Words): { text: string; node: ReactNode } {
  if (!event.entity) return { text: '—', node: '—' };
  const kind = refKindOfEntity(event.entity);
  const id = asId(event.entityId);
  if (kind && id) {
    const v = named(kind, id, w);
    const name = w.refs[auditRefKey(kind, id)];
    const kindLabel = w.texts.refKind(kind);
    if (name === undefined) {
      const text = w.texts.t('page.recordGone', { kind: kindLabel });
      return { text, node: text };
    }
    return {
      text: w.texts.t('page.recordNamed', { kind: kindLabel, name }),
      node: (
        <>
          {kindLabel}: {v.node}
        </>
      ),
    };
  }
  // A kind of record without a name of its own (a queue item, a report): its kind only.
  const text = w.texts.entity(event.entity);
  return {
    text: text.charAt(0).toUpperCase() + text.slice(1),
    node: text.charAt(0).toUpperCase() + text.slice(1),
  };
}

export type { Words as AuditWords };

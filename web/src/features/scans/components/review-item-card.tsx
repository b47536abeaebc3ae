/**
 * One review item: its crop, who and what it is, what the scan read, and the actions its kind
 * allows. Keyboard first: Enter settles it as shown (accepts what was read, or saves the bubbles
 * chosen), → or N skips to the next, digit keys 1–9 (0 for the tenth) toggle a bubble. An input
 * keeps its own keys (Enter there sends its form); PageDown skips from an input too.
 */
import type { ScanReviewAction, ScanReviewItem } from '@attesta/contract';

type Legend = NonNullable<ScanReviewItem['legend']>;
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Kbd,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Fragment, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { resolveReviewItem, reviewCropPath, reviewFilePath } from '../api/scans-api';
import { gridText, gridValues } from '../lib/digit-grid';
import { describeScanError } from '../lib/scan-errors';
import { useScansT } from '../locales';

type T = ReturnType<typeof useScansT>;
type Resolution = 'accepted' | 'set' | 'keyed' | 'identified' | 'dismissed';

const RESOLUTION: Record<ScanReviewAction['action'], Resolution> = {
  accept: 'accepted',
  set: 'set',
  key: 'keyed',
  identify: 'identified',
  dismiss: 'dismissed',
};

const sameValues = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

interface Props {
  item: ScanReviewItem;
  /** Take focus on arrival (after an action or a skip). */
  autoFocus: boolean;
  canSkip: boolean;
  onSkip: () => void;
  onResolved: (item: ScanReviewItem, message: string) => void;
  /** The item was settled elsewhere or is gone (said by `message`): the list is asked again. */
  onStale: (item: ScanReviewItem, message: string) => void;
}

export function ReviewItemCard({ item, autoFocus, canSkip, onSkip, onResolved, onStale }: Props) {
  const t = useScansT();
  const { t: appT } = useTranslation();
  const headingId = useId();
  const card = useRef<HTMLElement>(null);
  const grid = item.digitColumns !== null;
  const bubbles = item.kind === 'doubtful' && !grid && item.choices.length > 0;
  const [chosen, setChosen] = useState<readonly string[]>(item.recognized);
  const [digits, setDigits] = useState(() => gridText(item.recognized));
  const [digitsError, setDigitsError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [code, setCode] = useState(item.registrationCode ?? '');
  const [formPage, setFormPage] = useState(String(item.formPage ?? 1));
  const [fieldErrors, setFieldErrors] = useState<{ code?: string; formPage?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [cropFailed, setCropFailed] = useState(false);

  useEffect(() => {
    if (!autoFocus || !card.current) return;
    const input = card.current.querySelector<HTMLInputElement>('input:not([disabled])');
    (input ?? card.current).focus();
    // Only on arrival: the item's own state changes never move the focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const send = async (body: ScanReviewAction) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await resolveReviewItem(item.id, body);
      onResolved(item, t(`review.done.${RESOLUTION[body.action]}`));
    } catch (e) {
      setBusy(false);
      const message = describeScanError(e, t, appT);
      const paths = e instanceof ApiError ? e.fieldErrors.map((f) => f.path) : [];
      // Gone or settled by someone else: the page says so, as this card leaves with the item.
      if (e instanceof ApiError && (e.status === 404 || e.code === 'conflict')) onStale(item, message);
      else if (paths.includes('body.registrationCode')) setFieldErrors({ code: t('review.noForm') });
      else if (paths.includes('body.formPage')) setFieldErrors({ formPage: t('review.noPage') });
      else setError(message);
    }
  };

  const labelOf = (value: string) => item.choices.find((c) => c.value === value)?.label ?? '?';
  const inLayoutOrder = (values: readonly string[]) => {
    const order = new Map(item.choices.map((c, i) => [c.value, i]));
    return [...values].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  };
  const toggle = (index: number) => {
    const choice = item.choices[index];
    if (!choice || busy) return;
    setChosen((c) => (c.includes(choice.value) ? c.filter((v) => v !== choice.value) : [...c, choice.value]));
  };

  /** The doubtful item settled as shown: what was read, or what the person chose instead. */
  const settleDoubtful = () => {
    if (grid) {
      const values = gridValues(digits, item.choices);
      if (values === null) return setDigitsError(t('review.digitsInvalid'));
      setDigitsError(null);
      return send(
        sameValues(values, item.recognized) ? { action: 'accept' } : { action: 'set', value: values },
      );
    }
    return send(
      sameValues(chosen, item.recognized)
        ? { action: 'accept' }
        : { action: 'set', value: inLayoutOrder(chosen) },
    );
  };

  const identify = (event?: FormEvent) => {
    event?.preventDefault();
    const page = Number(formPage);
    const errors = {
      code: code.trim() ? undefined : t('review.codeRequired'),
      formPage: Number.isInteger(page) && page >= 1 ? undefined : t('review.formPageInvalid'),
    };
    setFieldErrors(errors);
    if (errors.code || errors.formPage) return;
    void send({ action: 'identify', registrationCode: code.trim(), formPage: page });
  };
  const keyIn = (event?: FormEvent) => {
    event?.preventDefault();
    void send({ action: 'key', text });
  };

  const primary = () => {
    switch (item.kind) {
      case 'doubtful':
        return void settleDoubtful();
      case 'replace':
        return void send({ action: 'accept' });
      case 'unreadable':
        return void send({ action: 'dismiss' });
      case 'key_text':
        return keyIn();
      case 'unidentified':
        return identify();
    }
  };

  // Re-subscribed on each render, so the keys act on the state shown.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || busy) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (target?.closest('[role="dialog"]')) return;
      // PageDown skips from anywhere, an input too (where → moves the caret).
      if (e.key === 'PageDown') {
        e.preventDefault();
        return onSkip();
      }
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (e.key === 'Enter') {
        // A button or link keeps Enter for itself, except a bubble: Space toggles it, Enter settles.
        if (target?.closest('button:not([data-bubble]), a')) return;
        e.preventDefault();
        primary();
      } else if (e.key === 'ArrowRight' || e.code === 'KeyN') {
        e.preventDefault();
        onSkip();
      } else if (bubbles && /^[0-9]$/.test(e.key)) {
        e.preventDefault();
        toggle(e.key === '0' ? 9 : Number(e.key) - 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const changed = grid ? digits !== gridText(item.recognized) : !sameValues(chosen, item.recognized);
  const task = item.taskNumber !== null ? t('review.task', { number: item.taskNumber }) : t('review.noTask');

  return (
    <Paper
      ref={card}
      component="section"
      withBorder
      p="md"
      radius="md"
      tabIndex={-1}
      aria-labelledby={headingId}
      data-testid="review-item"
      data-item={item.id}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Title order={2} fz="lg" id={headingId} data-testid="review-task">
            {task}
          </Title>
          <Badge variant="light" data-testid="review-kind-badge">
            {t(`review.kinds.${item.kind}`)}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {t(`review.kindHints.${item.kind}`)}
        </Text>
        <Box
          component="dl"
          fz="sm"
          m={0}
          style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 12px' }}
        >
          <dt>{t('review.participant')}</dt>
          <dd style={{ margin: 0 }} data-testid="review-participant">
            {item.participantName ?? t('review.noParticipant')}
          </dd>
          {item.className && (
            <>
              <dt>{t('review.place')}</dt>
              <dd style={{ margin: 0 }}>{[item.className, item.schoolName].filter(Boolean).join(', ')}</dd>
            </>
          )}
        </Box>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('review.source', { file: item.file, page: item.page })}
          {item.registrationCode && ` · ${t('review.code', { code: item.registrationCode })}`}
        </Text>

        {item.problem && t(`review.problems.${item.problem}`, { defaultValue: '' }) && (
          <Text size="sm" data-testid="review-problem">
            {t(`review.problems.${item.problem}`)}
          </Text>
        )}

        {!item.crop && item.sourceFile ? (
          <Alert color="yellow" data-testid="review-undecoded">
            <Stack gap={6}>
              <Text size="sm">{t('review.undecoded')}</Text>
              <Anchor href={reviewFilePath(item.id)} download={item.file} size="sm" data-testid="review-file">
                {t('review.downloadFile', { file: item.file })}
              </Anchor>
            </Stack>
          </Alert>
        ) : cropFailed || !item.crop ? (
          <Text size="sm" c="dimmed" data-testid="review-crop-missing">
            {t('review.cropMissing')}
          </Text>
        ) : (
          <img
            onError={() => setCropFailed(true)}
            // A task's crop is cut at the scan's resolution (150–200 dpi: a column of bubbles is a
            // few dozen pixels wide): shown twice its size, never wider than the card.
            onLoad={(e) => {
              const img = e.currentTarget;
              if (item.taskNumber !== null && img.naturalWidth < 400)
                img.style.width = `${img.naturalWidth * 2}px`;
            }}
            src={reviewCropPath(item.id)}
            alt={
              item.taskNumber !== null
                ? t('review.cropAlt', { number: item.taskNumber })
                : t('review.cropPageAlt', { file: item.file, page: item.page })
            }
            style={{
              display: 'block',
              // Not stretched by the column: a small crop keeps its size, a large one fits the card.
              alignSelf: 'flex-start',
              maxWidth: '100%',
              height: 'auto',
              border: '1px solid var(--mantine-color-default-border)',
              background: 'white',
            }}
            data-testid="review-crop"
          />
        )}

        {item.legend && <GridLegend legend={item.legend} t={t} />}

        {(item.kind === 'doubtful' || item.kind === 'replace') && (
          <ReadValues item={item} labelOf={labelOf} t={t} />
        )}

        {item.kind === 'doubtful' && grid && (
          <TextInput
            label={t('review.digits')}
            description={t('review.digitsHint')}
            value={digits}
            inputMode="decimal"
            autoComplete="off"
            onChange={(e) => {
              setDigits(e.currentTarget.value);
              setDigitsError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void settleDoubtful();
              }
            }}
            error={digitsError}
            maw={320}
            data-testid="review-digits"
          />
        )}

        {bubbles && (
          <Box component="fieldset" m={0} p={0} style={{ border: 0 }}>
            <Text component="legend" size="sm" fw={500} mb={4}>
              {t('review.choice')}
            </Text>
            <Group gap="xs" data-testid="review-choices">
              {item.choices.map((c, i) => {
                const on = chosen.includes(c.value);
                return (
                  <Button
                    key={c.value}
                    data-bubble
                    variant={on ? 'filled' : 'outline'}
                    radius="xl"
                    miw={44}
                    h={44}
                    px="xs"
                    aria-pressed={on}
                    aria-keyshortcuts={i < 10 ? String((i + 1) % 10) : undefined}
                    onClick={() => toggle(i)}
                  >
                    {c.label}
                    {i < 10 && item.choices.length > 1 && (
                      <Text component="sup" fz={10} ml={2} aria-hidden c={on ? 'white' : 'dimmed'}>
                        {(i + 1) % 10}
                      </Text>
                    )}
                  </Button>
                );
              })}
            </Group>
            <Text size="xs" c="dimmed" mt={4}>
              {t('review.choiceHint')}
            </Text>
          </Box>
        )}

        {item.kind === 'key_text' && (
          <form onSubmit={keyIn} noValidate>
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                label={t('review.keyText')}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                maxLength={2000}
                autoComplete="off"
                style={{ flex: '1 1 220px' }}
                data-testid="review-text"
              />
              <Button type="submit" loading={busy} data-testid="review-save">
                {t('review.save')}
              </Button>
            </Group>
          </form>
        )}

        {item.kind === 'unidentified' && (
          <form onSubmit={identify} noValidate>
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                label={t('review.codeLabel')}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                error={fieldErrors.code}
                maxLength={64}
                autoComplete="off"
                style={{ flex: '1 1 200px' }}
                data-testid="review-code"
              />
              <TextInput
                label={t('review.formPage')}
                value={formPage}
                onChange={(e) => setFormPage(e.currentTarget.value)}
                error={fieldErrors.formPage}
                inputMode="numeric"
                w={120}
                data-testid="review-form-page"
              />
              <Button type="submit" loading={busy} data-testid="review-identify">
                {t('review.identify')}
              </Button>
            </Group>
          </form>
        )}

        {error && (
          <Alert color="red" role="alert" data-testid="review-error">
            {error}
          </Alert>
        )}

        <Group gap="sm" wrap="wrap">
          {item.kind === 'doubtful' && (
            <>
              <Button
                onClick={() => send({ action: 'accept' })}
                loading={busy}
                disabled={changed}
                data-testid="review-accept"
              >
                {t('review.accept')}
              </Button>
              <Button
                variant="light"
                onClick={() => void settleDoubtful()}
                disabled={!changed || busy}
                data-testid="review-set"
              >
                {t('review.setChoice')}
              </Button>
            </>
          )}
          {item.kind === 'replace' && (
            <Button onClick={() => send({ action: 'accept' })} loading={busy} data-testid="review-accept">
              {t('review.replace')}
            </Button>
          )}
          {(item.kind === 'unidentified' || item.kind === 'unreadable' || item.kind === 'replace') && (
            <Button
              variant={item.kind === 'unreadable' ? 'filled' : 'default'}
              onClick={() => send({ action: 'dismiss' })}
              disabled={busy}
              data-testid="review-dismiss"
            >
              {item.kind === 'replace' ? t('review.keepSaved') : t('review.dismiss')}
            </Button>
          )}
          <Button variant="subtle" onClick={onSkip} disabled={!canSkip || busy} data-testid="review-skip">
            {t('review.skip')}
          </Button>
        </Group>

        <Text size="xs" c="dimmed" data-testid="review-keys">
          {t('review.shortcuts')}: <Kbd>Enter</Kbd> {t(`review.keys.enter.${item.kind}`)}; <Kbd>→</Kbd> /{' '}
          <Kbd>N</Kbd> / <Kbd>PageDown</Kbd> {t('review.keys.skip')}
          {bubbles && (
            <>
              ; <Kbd>1</Kbd>–<Kbd>9</Kbd> {t('review.keys.digit')}
            </>
          )}
        </Text>
      </Stack>
    </Paper>
  );
}

/** What the scan read (and, for a newer scan, what was saved before), as the sheet prints it. */
function ReadValues({
  item,
  labelOf,
  t,
}: {
  item: ScanReviewItem;
  labelOf: (value: string) => string;
  t: T;
}) {
  const grid = item.digitColumns !== null;
  const shown = (values: readonly string[], testId: string) =>
    values.length === 0 ? (
      <Text size="sm" c="dimmed" data-testid={testId}>
        {t('review.readNothing')}
      </Text>
    ) : grid ? (
      <Text ff="monospace" fz="lg" fw={700} data-testid={testId}>
        {gridText(values)}
      </Text>
    ) : (
      <Group gap={6} data-testid={testId}>
        {values.map((v) => (
          <Badge key={v} size="lg" radius="xl" variant="filled" color="blue" tt="none">
            {labelOf(v)}
          </Badge>
        ))}
      </Group>
    );
  return (
    <Stack gap={6}>
      {item.kind === 'replace' && item.savedValue && (
        <Group gap="sm" align="center">
          <Text size="sm" fw={500} miw={140}>
            {t('review.saved')}
          </Text>
          {shown(item.savedValue, 'review-saved')}
        </Group>
      )}
      <Group gap="sm" align="center">
        <Text size="sm" fw={500} miw={140}>
          {t('review.read')}
        </Text>
        {shown(item.recognized, 'review-read')}
      </Group>
      {item.confidence !== null && item.kind === 'doubtful' && (
        <Text size="xs" c="dimmed" data-testid="review-confidence">
          {item.doubleMark
            ? t('review.doubleMark')
            : t('review.confidence', { percent: Math.round(item.confidence * 100) })}
        </Text>
      )}
    </Stack>
  );
}

/**
 * What a matching or ordering grid's rows and columns are, as the form lists them above the grid
 * (outside the crop): a person judges the marks against these.
 */
function GridLegend({ legend, t }: { legend: Legend; t: T }) {
  const positions = legend.columns.every((c) => !c.text);
  const list = (entries: Legend['rows'], testId: string) => (
    <Box
      component="dl"
      fz="sm"
      m={0}
      style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 8px' }}
      data-testid={testId}
    >
      {entries.map((e) => (
        <Fragment key={e.label}>
          <dt style={{ fontWeight: 700 }}>{e.label}</dt>
          <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{e.text}</dd>
        </Fragment>
      ))}
    </Box>
  );
  return (
    <Box component="section" aria-label={t('review.legend.title')} data-testid="review-legend">
      <Text size="sm" fw={500} mb={4}>
        {t('review.legend.title')}
      </Text>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <Stack gap={2} style={{ flex: '1 1 220px' }}>
          <Text size="xs" c="dimmed">
            {t('review.legend.rows')}
          </Text>
          {list(legend.rows, 'review-legend-rows')}
        </Stack>
        <Stack gap={2} style={{ flex: '1 1 220px' }}>
          <Text size="xs" c="dimmed">
            {t('review.legend.columns')}
          </Text>
          {positions ? (
            <Text size="sm" data-testid="review-legend-columns">
              {t('review.legend.positions', { count: legend.columns.length })}
            </Text>
          ) : (
            list(legend.columns, 'review-legend-columns')
          )}
        </Stack>
      </Group>
    </Box>
  );
}

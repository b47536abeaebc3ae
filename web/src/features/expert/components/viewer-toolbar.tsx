/**
 * The buttons of an attachment viewer: zoom out / in, fit to width, 100 %, quarter turns and, for a
 * PDF, its pages. Every button has a label in words (its symbol is only a picture of it).
 */
import { Button, Group, Text, TextInput, Tooltip } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { clampPage, percent, type ViewerAction } from '../lib/viewer';

function ToolButton({
  label,
  onClick,
  children,
  disabled,
  pressed,
  testId,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
  disabled?: boolean;
  pressed?: boolean;
  testId: string;
}) {
  return (
    <Tooltip label={label} openDelay={400}>
      <Button
        size="compact-sm"
        variant={pressed ? 'light' : 'default'}
        aria-label={label}
        aria-pressed={pressed === undefined ? undefined : pressed}
        disabled={disabled}
        onClick={onClick}
        data-testid={testId}
      >
        {children}
      </Button>
    </Tooltip>
  );
}

export interface PagingProps {
  page: number;
  count: number;
  onPage: (page: number) => void;
}

export function ViewerToolbar({
  t,
  scale,
  fit,
  onAction,
  paging,
  testId,
}: {
  t: LooseT;
  scale: number;
  fit: boolean;
  onAction: (action: ViewerAction) => void;
  paging?: PagingProps;
  testId: string;
}) {
  return (
    <Group gap={6} wrap="wrap" mb={6} data-testid={`${testId}-toolbar`}>
      <ToolButton
        label={t('expert.viewer.zoomOut')}
        onClick={() => onAction('zoomOut')}
        testId={`${testId}-zoom-out`}
      >
        −
      </ToolButton>
      <Text size="sm" w={48} ta="center" aria-live="polite" data-testid={`${testId}-zoom`}>
        {percent(scale)} %
      </Text>
      <ToolButton
        label={t('expert.viewer.zoomIn')}
        onClick={() => onAction('zoomIn')}
        testId={`${testId}-zoom-in`}
      >
        +
      </ToolButton>
      <ToolButton
        label={t('expert.viewer.fit')}
        pressed={fit}
        onClick={() => onAction('fit')}
        testId={`${testId}-fit`}
      >
        {t('expert.viewer.fitShort')}
      </ToolButton>
      <ToolButton
        label={t('expert.viewer.actual')}
        pressed={!fit && Math.abs(scale - 1) < 1e-6}
        onClick={() => onAction('actual')}
        testId={`${testId}-actual`}
      >
        100 %
      </ToolButton>
      <ToolButton
        label={t('expert.viewer.rotateLeft')}
        onClick={() => onAction('rotateLeft')}
        testId={`${testId}-rotate-left`}
      >
        ⟲
      </ToolButton>
      <ToolButton
        label={t('expert.viewer.rotateRight')}
        onClick={() => onAction('rotateRight')}
        testId={`${testId}-rotate-right`}
      >
        ⟳
      </ToolButton>
      {paging && <Pager t={t} testId={testId} {...paging} />}
    </Group>
  );
}

function Pager({ t, page, count, onPage, testId }: PagingProps & { t: LooseT; testId: string }) {
  // What is being typed; null shows the current page.
  const [typed, setTyped] = useState<string | null>(null);
  const commit = () => {
    if (typed === null) return;
    const next = clampPage(Number(typed), count);
    setTyped(null);
    if (next !== page) onPage(next);
  };
  return (
    <Group gap={6} wrap="nowrap" ml="auto">
      <ToolButton
        label={t('expert.viewer.prevPage')}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        testId={`${testId}-prev`}
      >
        ‹
      </ToolButton>
      <TextInput
        size="xs"
        w={52}
        inputMode="numeric"
        aria-label={t('expert.viewer.pageNumber', { count })}
        value={typed ?? String(page)}
        onChange={(event) => setTyped(event.currentTarget.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            event.stopPropagation();
            commit();
          }
        }}
        data-testid={`${testId}-page`}
      />
      <Text size="sm" data-testid={`${testId}-pages`}>
        {t('expert.viewer.ofPages', { count })}
      </Text>
      <ToolButton
        label={t('expert.viewer.nextPage')}
        disabled={page >= count}
        onClick={() => onPage(page + 1)}
        testId={`${testId}-next`}
      >
        ›
      </ToolButton>
    </Group>
  );
}

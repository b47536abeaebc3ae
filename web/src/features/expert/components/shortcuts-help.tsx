/** The grading keys, behind a labelled button (and the ? key). */
import { Button, Popover, Stack, Text } from '@mantine/core';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { ShortcutTable, type ShortcutRow } from '../../../components/ui/shortcut-table';

export function ShortcutsHelp({
  t,
  opened,
  onChange,
}: {
  t: LooseT;
  opened: boolean;
  onChange: (opened: boolean) => void;
}) {
  const rows: ShortcutRow[] = [
    [['0–9'], t('expert.keys.digit')],
    [['↑', '↓'], t('expert.keys.move')],
    [['Tab'], t('expert.keys.tab')],
    [['Enter'], t('expert.keys.enter')],
    [['Ctrl', 'Enter'], t('expert.keys.ctrlEnter')],
    [['N'], t('expert.keys.next')],
    [['+', '−'], t('expert.keys.zoom')],
    [['W'], t('expert.keys.fit')],
    [['A'], t('expert.keys.actual')],
    [['R'], t('expert.keys.rotate')],
    [['←', '→', '↑', '↓'], t('expert.keys.pan')],
    [['PgUp', 'PgDn'], t('expert.keys.pages')],
    [['?'], t('expert.keys.help')],
  ];
  return (
    <Popover width={380} position="bottom-end" withArrow shadow="md" opened={opened} onChange={onChange}>
      <Popover.Target>
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => onChange(!opened)}
          aria-expanded={opened}
          data-testid="grading-keys"
        >
          {t('expert.keys.open')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="grading-keys-help">
        <Stack gap="xs">
          <Text fw={600}>{t('expert.keys.title')}</Text>
          <ShortcutTable rows={rows} joiner={' '} />
          <Text size="xs" c="dimmed">
            {t('expert.keys.viewerNote')}
          </Text>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

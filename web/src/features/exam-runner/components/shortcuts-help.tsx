import { ActionIcon, Popover, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ShortcutTable, type ShortcutRow } from '../../../components/ui/shortcut-table';

export function ShortcutsHelp() {
  const { t } = useTranslation();
  const rows: ShortcutRow[] = [
    [['Alt', '→'], t('runner.help.next')],
    [['Alt', '←'], t('runner.help.prev')],
    [['Alt', 'F'], t('runner.help.flag')],
    [['←', '→'], t('runner.help.navArrows')],
  ];
  return (
    <Popover width={340} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('runner.help.open')}
          data-testid="shortcuts-help"
        >
          ?
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text fw={600}>{t('runner.help.title')}</Text>
          <ShortcutTable rows={rows} />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

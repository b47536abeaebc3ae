import { ActionIcon, Stack, Text } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { Popover } from '../../../components/lite/popover';
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
    <Popover
      width={340}
      focusOnOpen={false}
      target={(props) => (
        <ActionIcon
          variant="default"
          size="lg"
          {...props}
          aria-label={t('runner.help.open')}
          data-testid="shortcuts-help"
        >
          ?
        </ActionIcon>
      )}
    >
      <Stack gap="xs">
        <Text fw={600}>{t('runner.help.title')}</Text>
        <ShortcutTable rows={rows} />
      </Stack>
    </Popover>
  );
}

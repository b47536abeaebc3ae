import { ActionIcon, Kbd, Popover, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ShortcutsHelp() {
  const { t } = useTranslation();
  const rows: [string[], string][] = [
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
          <Table>
            <Table.Tbody>
              {rows.map(([keys, text]) => (
                <Table.Tr key={text}>
                  <Table.Td>
                    {keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && ' + '}
                        <Kbd>{k}</Kbd>
                      </span>
                    ))}
                  </Table.Td>
                  <Table.Td>{text}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

import { Kbd, Table } from '@mantine/core';

/** One row of a keyboard help: the keys pressed together (or in turn) and what they do. */
export type ShortcutRow = [keys: string[], text: string];

/** The table of a keyboard help popover: keys as <Kbd>, joined by `joiner`, beside their meaning. */
export function ShortcutTable({ rows, joiner = ' + ' }: { rows: ShortcutRow[]; joiner?: string }) {
  return (
    <Table fz="sm" verticalSpacing={2}>
      <Table.Tbody>
        {rows.map(([keys, text]) => (
          <Table.Tr key={text}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              {keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && joiner}
                  <Kbd>{k}</Kbd>
                </span>
              ))}
            </Table.Td>
            <Table.Td>{text}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

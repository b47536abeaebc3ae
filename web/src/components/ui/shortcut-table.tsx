import { Kbd } from '../lite/kbd';
import { Table } from '../lite/table';

/** One row of a keyboard help: the keys pressed together (or in turn) and what they do. */
export type ShortcutRow = [keys: string[], text: string];

/** The table of a keyboard help popover: keys as <kbd>, joined by `joiner`, beside their meaning. */
export function ShortcutTable({ rows, joiner = ' + ' }: { rows: ShortcutRow[]; joiner?: string }) {
  return (
    <Table compact>
      <tbody>
        {rows.map(([keys, text]) => (
          <tr key={text}>
            <td style={{ whiteSpace: 'nowrap' }}>
              {keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && joiner}
                  <Kbd>{k}</Kbd>
                </span>
              ))}
            </td>
            <td>{text}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

import { Kbd } from '@mantine/core';
import './shortcut-table.css';

/** One row of a keyboard help: the keys pressed together (or in turn) and what they do. */
export type ShortcutRow = [keys: string[], text: string];

/**
 * The table of a keyboard help popover: keys as <Kbd>, joined by `joiner`, beside their meaning.
 * A plain table (Mantine's Table brings its ScrollArea and floating-ui into the runner's shell).
 */
export function ShortcutTable({ rows, joiner = ' + ' }: { rows: ShortcutRow[]; joiner?: string }) {
  return (
    <table className="shortcut-table">
      <tbody>
        {rows.map(([keys, text]) => (
          <tr key={text}>
            <td className="shortcut-keys">
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
    </table>
  );
}

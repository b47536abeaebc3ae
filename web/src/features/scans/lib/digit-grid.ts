/**
 * A digit grid's layout values (docs/paper-forms.md: `<column>:<digit>`, `sign:-`, `comma:<k>`)
 * as the number a person reads and types, and back. The grid is written from its first column.
 */

/** The number the values spell: «−» for the sign, «,» after column k, «?» for a column left empty
 * between marked ones, «[35]» for a column marked twice. */
export function gridText(values: readonly string[]): string {
  const digits = new Map<number, string>();
  const commas = new Set<number>();
  let sign = false;
  for (const value of values) {
    const [head, tail] = value.split(':');
    if (head === 'sign') sign = true;
    else if (head === 'comma') commas.add(Number(tail));
    else if (tail !== undefined) digits.set(Number(head), (digits.get(Number(head)) ?? '') + tail);
  }
  const lastDigit = Math.max(0, ...digits.keys());
  const last = Math.max(lastDigit, ...commas);
  let text = sign ? '-' : '';
  for (let column = 1; column <= last; column++) {
    const marked = digits.get(column) ?? '';
    if (marked.length > 1) text += `[${marked}]`;
    else if (marked) text += marked;
    else if (column < lastDigit) text += '?';
    if (commas.has(column)) text += ',';
  }
  return text;
}

/**
 * The layout values of a typed number, in the order of the grid's bubbles; null when the text is no
 * number the grid can hold (too many digits, a sign or comma it has no bubble for). Empty: no answer.
 */
export function gridValues(text: string, choices: readonly { value: string }[]): string[] | null {
  const compact = text.replace(/\s+/g, '').replace('−', '-').replace('.', ',');
  if (compact === '') return [];
  const match = /^(-?)(\d+)(?:,(\d+))?$/.exec(compact);
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  const values = [...`${whole}${fraction}`].map((digit, i) => `${i + 1}:${digit}`);
  if (sign) values.push('sign:-');
  if (fraction) values.push(`comma:${whole.length}`);
  const order = new Map(choices.map((c, i) => [c.value, i]));
  if (values.some((v) => !order.has(v))) return null;
  return values.sort((a, b) => order.get(a)! - order.get(b)!);
}

/**
 * The runner's basic calculator (docs/accommodations.md): + − × ÷ on decimals, entered as on a
 * pocket calculator — each operator applies the pending one (left to right, no precedence), «=»
 * ends the chain. Pure state, so the keys and the buttons share it and tests need no DOM.
 */

export type Operator = '+' | '-' | '*' | '/';

export interface CalculatorState {
  /** What the display shows: the number being typed, a result, or «Ошибка» (`error`). */
  display: string;
  /** The left operand and the operator waiting for the right one. */
  pending: { value: number; op: Operator } | null;
  /** The next digit starts a new number (after an operator or «=»). */
  fresh: boolean;
  error: boolean;
}

export type CalculatorKey = Operator | '=' | '.' | 'C' | 'back' | `${number}`;

export const CALCULATOR_START: CalculatorState = { display: '0', pending: null, fresh: true, error: false };

const MAX_DIGITS = 15;

function apply(a: number, op: Operator, b: number): number | null {
  const r = op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : b === 0 ? null : a / b;
  return r === null || !Number.isFinite(r) ? null : r;
}

/** A number as the display shows it: at most 12 significant digits, no float noise (0.1 + 0.2 = 0.3). */
export function formatResult(n: number): string {
  if (Object.is(n, -0)) return '0';
  return String(Number.parseFloat(n.toPrecision(12)));
}

export function press(s: CalculatorState, key: CalculatorKey): CalculatorState {
  if (key === 'C') return CALCULATOR_START;
  if (s.error) return press(CALCULATOR_START, key);
  if (/^\d$/.test(key)) {
    if (s.fresh) return { ...s, display: key, fresh: false };
    if (s.display.replace(/[-.]/g, '').length >= MAX_DIGITS) return s;
    return { ...s, display: s.display === '0' ? key : s.display + key };
  }
  if (key === '.') {
    if (s.fresh) return { ...s, display: '0.', fresh: false };
    return s.display.includes('.') ? s : { ...s, display: s.display + '.' };
  }
  if (key === 'back') {
    if (s.fresh) return s;
    const rest = s.display.slice(0, -1);
    return { ...s, display: rest === '' || rest === '-' ? '0' : rest };
  }
  const current = Number(s.display);
  // An operator right after another one replaces it.
  let value = current;
  if (s.pending && !(s.fresh && key !== '=')) {
    const r = apply(s.pending.value, s.pending.op, current);
    if (r === null) return { display: 'error', pending: null, fresh: true, error: true };
    value = r;
  } else if (s.pending && s.fresh) value = s.pending.value;
  if (key === '=') return { display: formatResult(value), pending: null, fresh: true, error: false };
  return { display: formatResult(value), pending: { value, op: key as Operator }, fresh: true, error: false };
}

/** The calculator key of a keyboard key, or null. */
export function keyOf(key: string): CalculatorKey | null {
  if (/^\d$/.test(key)) return key as CalculatorKey;
  switch (key) {
    case '+':
    case '-':
    case '*':
    case '/':
      return key;
    case 'x':
    case 'X':
    case '×':
      return '*';
    case '÷':
      return '/';
    case '.':
    case ',':
      return '.';
    case '=':
    case 'Enter':
      return '=';
    case 'Backspace':
      return 'back';
    case 'Delete':
    case 'c':
    case 'C':
      return 'C';
    default:
      return null;
  }
}

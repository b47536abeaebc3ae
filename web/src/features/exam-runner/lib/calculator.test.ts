import { describe, expect, it } from 'vitest';
import { CALCULATOR_START, keyOf, press, type CalculatorKey } from './calculator';

const run = (keys: string) =>
  [...keys].reduce((s, k) => press(s, (k === 'b' ? 'back' : k) as CalculatorKey), CALCULATOR_START).display;

describe('the calculator', () => {
  it('adds, subtracts, multiplies and divides left to right', () => {
    expect(run('12+30=')).toBe('42');
    expect(run('7-10=')).toBe('-3');
    expect(run('2+3*4=')).toBe('20');
    expect(run('1/4=')).toBe('0.25');
    expect(run('9/3*2-1=')).toBe('5');
  });

  it('keeps decimals clean and shows the running result after each operator', () => {
    expect(run('.1+.2=')).toBe('0.3');
    expect(run('1.5*1.5=')).toBe('2.25');
    expect(run('2+3+')).toBe('5');
    expect(run('1..5+1=')).toBe('2.5');
  });

  it('a second operator replaces the first; backspace and clear', () => {
    expect(run('8+-3=')).toBe('5');
    expect(run('123b=')).toBe('12');
    expect(run('5+5C')).toBe('0');
  });

  it('division by zero is an error until the next key', () => {
    expect(run('5/0=')).toBe('error');
    expect(run('5/0=7')).toBe('7');
  });

  it('reads the keyboard', () => {
    expect(keyOf('Enter')).toBe('=');
    expect(keyOf(',')).toBe('.');
    expect(keyOf('x')).toBe('*');
    expect(keyOf('Backspace')).toBe('back');
    expect(keyOf('a')).toBeNull();
  });
});

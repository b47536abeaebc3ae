/**
 * The runner's basic calculator (docs/accommodations.md): + − × ÷ in a popover of the header,
 * offered only where the subject test allows it (`allowCalculator`). Buttons and keyboard alike:
 * digits, + - * / (x), Enter or =, Backspace, Delete or C; Escape closes it.
 */
import { Button, SimpleGrid, Stack, Text } from '../../../components/lite/core';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Popover } from '../../../components/lite/popover';
import { CALCULATOR_START, keyOf, press, type CalculatorKey } from '../lib/calculator';

type KeyName =
  | 'runner.calculator.plus'
  | 'runner.calculator.minus'
  | 'runner.calculator.multiply'
  | 'runner.calculator.divide'
  | 'runner.calculator.point'
  | 'runner.calculator.equals';

const KEYS: { key: CalculatorKey; label: string; name?: KeyName }[] = [
  { key: '7', label: '7' },
  { key: '8', label: '8' },
  { key: '9', label: '9' },
  { key: '/', label: '÷', name: 'runner.calculator.divide' },
  { key: '4', label: '4' },
  { key: '5', label: '5' },
  { key: '6', label: '6' },
  { key: '*', label: '×', name: 'runner.calculator.multiply' },
  { key: '1', label: '1' },
  { key: '2', label: '2' },
  { key: '3', label: '3' },
  { key: '-', label: '−', name: 'runner.calculator.minus' },
  { key: '0', label: '0' },
  { key: '.', label: ',', name: 'runner.calculator.point' },
  { key: '=', label: '=', name: 'runner.calculator.equals' },
  { key: '+', label: '+', name: 'runner.calculator.plus' },
];

export function CalculatorTool() {
  const { t } = useTranslation();
  const [state, setState] = useState(CALCULATOR_START);
  const hit = (key: CalculatorKey) => setState((s) => press(s, key));
  const onKeyDown = (e: KeyboardEvent) => {
    const key = keyOf(e.key);
    if (!key || e.ctrlKey || e.metaKey || e.altKey) return;
    // Enter on a focused button presses that button; elsewhere it is «=».
    if (e.key === 'Enter' && e.target instanceof HTMLButtonElement) return;
    e.preventDefault();
    hit(key);
  };
  const shown = state.error ? t('runner.calculator.error') : state.display.replace('.', ',');
  return (
    <Popover
      width={260}
      target={(props) => (
        <Button variant="default" {...props} data-testid="calculator-open">
          {t('runner.calculator.button')}
        </Button>
      )}
      panelProps={{ 'data-testid': 'calculator', onKeyDown }}
    >
      <Stack gap="xs" role="group" aria-label={t('runner.calculator.button')}>
        <Text
          ta="right"
          fz="xl"
          ff="monospace"
          px="xs"
          bd="1px solid var(--mantine-color-default-border)"
          role="status"
          aria-live="polite"
          aria-label={t('runner.calculator.display')}
          data-testid="calculator-display"
        >
          {shown}
        </Text>
        <SimpleGrid cols={4} spacing={6}>
          {KEYS.map((k) => (
            <Button
              key={k.key}
              variant={/\d/.test(k.key) ? 'default' : 'light'}
              onClick={() => hit(k.key)}
              aria-label={k.name ? t(k.name) : undefined}
              data-testid={`calc-${k.key}`}
            >
              {k.label}
            </Button>
          ))}
        </SimpleGrid>
        <SimpleGrid cols={2} spacing={6}>
          <Button variant="subtle" onClick={() => hit('back')} data-testid="calc-back">
            {t('runner.calculator.back')}
          </Button>
          <Button variant="subtle" color="red.8" onClick={() => hit('C')} data-testid="calc-clear">
            {t('runner.calculator.clear')}
          </Button>
        </SimpleGrid>
      </Stack>
    </Popover>
  );
}

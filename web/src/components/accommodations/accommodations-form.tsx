/**
 * A student's accommodations profile (issue 14, item 2; docs/accommodations.md), for one student or
 * the same for many: extra time, larger text, colours, reading ruler, tasks read aloud, rest breaks.
 * Checked with the contract's schema first; refusals shown by their code. Without calls: each work
 * place (the coordinator's, the admin's) sends it through its own.
 */
import {
  ACCOMMODATION_THEMES,
  accommodationsSchema,
  MAX_EXTRA_TIME_PERCENT,
  MAX_REST_BREAK_MINUTES,
  NO_ACCOMMODATIONS,
  type Accommodations,
  type AccommodationTheme,
} from '@attesta/contract';
import { Alert, Button, Group, NumberInput, Radio, Stack, Switch, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useApiForm } from '../../lib/use-api-form';
import { useBundleT } from '../data-table/use-bundle-t';
import { staffBundle } from '../staff-locales';
import { LoadingButton } from '../ui/loading-button';
import { accommodationsBundle } from './locales';

const THEME_LABEL = {
  default: 'accommodations.themeDefault',
  high_contrast: 'accommodations.themeHighContrast',
  dark: 'accommodations.themeDark',
} as const satisfies Record<AccommodationTheme, string>;

interface AccommodationsFormProps {
  initial: Accommodations | null;
  /** Shown above the fields (the bulk form says what it replaces). */
  hint?: string;
  onSubmit: (accommodations: Accommodations | null) => Promise<void>;
  onCancel: () => void;
}

export function AccommodationsForm({ initial, hint, onSubmit, onCancel }: AccommodationsFormProps) {
  useBundleT(staffBundle);
  const { t } = useBundleT(accommodationsBundle);
  const { attachForm, fieldErrors, formError, isLoading, submit } = useApiForm();
  const [values, setValues] = useState<Accommodations>(initial ?? NO_ACCOMMODATIONS);
  const set = <K extends keyof Accommodations>(key: K, value: Accommodations[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const send = (event: FormEvent) => {
    event.preventDefault();
    void submit(accommodationsSchema.safeParse(values), (body) => onSubmit(body));
  };
  const clear = () => void submit(accommodationsSchema.safeParse(NO_ACCOMMODATIONS), () => onSubmit(null));

  return (
    <form ref={attachForm} onSubmit={send} noValidate data-testid="accommodations-form">
      <Stack gap="sm">
        {hint && <Text size="sm">{hint}</Text>}
        {formError && (
          <Alert color="red" role="alert" data-testid="accommodations-form-error">
            {formError}
          </Alert>
        )}
        <NumberInput
          label={t('accommodations.extraTime')}
          description={t('accommodations.extraTimeHint')}
          min={0}
          max={MAX_EXTRA_TIME_PERCENT}
          step={5}
          allowDecimal={false}
          value={values.extraTimePercent}
          onChange={(v) => set('extraTimePercent', typeof v === 'number' ? v : Number(v) || 0)}
          error={fieldErrors.extraTimePercent}
          data-testid="accommodations-extra-time"
        />
        <Switch
          label={t('accommodations.largeText')}
          checked={values.largeText}
          onChange={(e) => set('largeText', e.currentTarget.checked)}
        />
        <Radio.Group
          label={t('accommodations.theme')}
          value={values.theme}
          onChange={(v) => set('theme', v as AccommodationTheme)}
        >
          <Group gap="md" mt={4}>
            {ACCOMMODATION_THEMES.map((theme) => (
              <Radio key={theme} value={theme} label={t(THEME_LABEL[theme])} />
            ))}
          </Group>
        </Radio.Group>
        <Switch
          label={t('accommodations.lineReader')}
          checked={values.lineReader}
          onChange={(e) => set('lineReader', e.currentTarget.checked)}
        />
        <Switch
          label={t('accommodations.magnifier')}
          checked={values.magnifier ?? false}
          onChange={(e) => set('magnifier', e.currentTarget.checked)}
          data-testid="accommodations-magnifier"
        />
        <Switch
          label={t('accommodations.textToSpeech')}
          checked={values.textToSpeech}
          onChange={(e) => set('textToSpeech', e.currentTarget.checked)}
        />
        <NumberInput
          label={t('accommodations.restBreaks')}
          description={t('accommodations.restBreaksHint')}
          min={0}
          max={MAX_REST_BREAK_MINUTES}
          allowDecimal={false}
          value={values.restBreakMinutes}
          onChange={(v) => set('restBreakMinutes', typeof v === 'number' ? v : Number(v) || 0)}
          error={fieldErrors.restBreakMinutes}
        />
        <Group justify="space-between" mt="sm">
          <Button
            variant="subtle"
            color="red"
            onClick={clear}
            disabled={isLoading}
            data-testid="accommodations-clear"
          >
            {t('accommodations.clear')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onCancel}>
              {t('staff.common.cancel')}
            </Button>
            <LoadingButton type="submit" loading={isLoading} data-testid="accommodations-save">
              {t('accommodations.save')}
            </LoadingButton>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

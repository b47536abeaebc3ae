/**
 * A list's period: two dates, from and till (either may stay empty), as the filters of the
 * diagnostics lists and the audit log ask for it. The till date may not be before the from date.
 */
import { TextInput } from '@mantine/core';
import { useBundleT } from './use-bundle-t';
import { dataTableBundle } from './locales';

export interface Period {
  from?: string | undefined;
  till?: string | undefined;
}

export function PeriodFilter({
  value,
  onChange,
  fromLabel,
  tillLabel,
  width,
  testIdPrefix,
}: {
  value: Period;
  onChange: (period: Period) => void;
  /** The labels the page uses (default: the shared «С даты» / «По дату»). */
  fromLabel?: string;
  tillLabel?: string;
  width?: number;
  /** `…-from` and `…-to` test ids for the two inputs. */
  testIdPrefix?: string;
}) {
  const { t } = useBundleT(dataTableBundle);
  return (
    <>
      <TextInput
        type="date"
        label={fromLabel ?? t('dataTable.from')}
        value={value.from ?? ''}
        max={value.till || undefined}
        onChange={(e) => onChange({ ...value, from: e.currentTarget.value || undefined })}
        w={width}
        data-testid={testIdPrefix ? `${testIdPrefix}-from` : undefined}
      />
      <TextInput
        type="date"
        label={tillLabel ?? t('dataTable.till')}
        value={value.till ?? ''}
        min={value.from || undefined}
        onChange={(e) => onChange({ ...value, till: e.currentTarget.value || undefined })}
        w={width}
        data-testid={testIdPrefix ? `${testIdPrefix}-to` : undefined}
      />
    </>
  );
}

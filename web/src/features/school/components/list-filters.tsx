/** The filters above the school lists: a search box and "all or one of" choices. */
import { NativeSelect, TextInput } from '@mantine/core';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { GRADES, parallelLabel } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';

/** The list's search box. */
export function SearchFilter({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  testId?: string;
}) {
  const { t } = useBundleT(staffBundle);
  return (
    <TextInput
      label={t('staff.common.search')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      data-testid={testId}
    />
  );
}

/** A choice of one of `options`, or of all (the empty value) first. */
export function ChoiceFilter<V extends string>({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: V | '';
  onChange: (value: V | '') => void;
  options: { value: V; label: string }[];
}) {
  const { t } = useBundleT(staffBundle);
  return (
    <NativeSelect
      label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value as V | '')}
      data={[{ value: '', label: t('staff.common.all') }, ...options]}
    />
  );
}

/** A choice of a grade (parallel), or of all. */
export function GradeFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useBundleT(staffBundle);
  const options = GRADES.map((g) => ({ value: String(g), label: parallelLabel(g, t) }));
  return <ChoiceFilter label={label} value={value} onChange={onChange} options={options} />;
}

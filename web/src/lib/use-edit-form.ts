/** The state of the create/edit forms (the modal shell is components/ui/form-modal): values, the api-form state and per-field helpers. */
import { useCallback, useState } from 'react';
import { useApiForm } from './use-api-form';

/**
 * Form values plus the api-form state: `set` clears the field's error, `text(field)` gives a text
 * input its value, change handler and error, `errorOf(field)` the error of any other input.
 */
export function useEditForm<V extends Record<string, unknown>>(initial: () => V) {
  const form = useApiForm();
  const { clearFieldError, fieldErrors } = form;
  const [values, setValues] = useState<V>(initial);
  const set = useCallback(
    <K extends keyof V & string>(field: K, value: V[K]) => {
      setValues((current) => ({ ...current, [field]: value }));
      clearFieldError(field);
    },
    [clearFieldError],
  );
  const errorOf = (field: keyof V & string) => ({
    error: fieldErrors[field],
    'aria-invalid': Boolean(fieldErrors[field]) || undefined,
  });
  const text = (field: keyof V & string) => ({
    value: String(values[field] ?? ''),
    onChange: (e: { currentTarget: { value: string } }) =>
      set(field, e.currentTarget.value as V[typeof field]),
    ...errorOf(field),
  });
  return { ...form, values, set, setValues, text, errorOf };
}

export type EditForm = ReturnType<typeof useEditForm>;

/** Empty text → null (the contract's "clear"), otherwise the trimmed text. */
export const orNull = (text: string) => text.trim() || null;

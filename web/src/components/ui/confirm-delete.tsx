import { ConfirmAction, type ConfirmActionProps } from './confirm-action';

export type ConfirmDeleteProps = Omit<ConfirmActionProps, 'color' | 'confirmTestId' | 'errorTestId'>;

/** Asks before deleting; a refusal is explained in the dialog, which then stays open. */
export function ConfirmDelete(props: ConfirmDeleteProps) {
  return <ConfirmAction {...props} color="red" confirmTestId="confirm-delete" errorTestId="delete-error" />;
}

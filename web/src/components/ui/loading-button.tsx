import { Button, type ButtonProps } from '../lite/core';
import type { ComponentPropsWithoutRef, MouseEvent } from 'react';
import { useIsLoading } from '../../lib/use-is-loading';

export const LOADING_CLASS = 'is-loading';

type NativeButtonProps = Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps | 'onClick'>;

export interface LoadingButtonProps extends ButtonProps, NativeButtonProps {
  /** May return a promise: the button shows `is-loading` and ignores clicks until it settles. */
  onClick?: (event: MouseEvent<HTMLButtonElement>) => unknown;
  /** Loading state driven from outside, e.g. by the form that owns this submit button. */
  loading?: boolean;
}

/** A Mantine Button that carries the `is-loading` class (spec §9) while its request runs. */
export function LoadingButton({ onClick, loading, className, ...rest }: LoadingButtonProps) {
  const { isLoading, run } = useIsLoading();
  const busy = Boolean(loading) || isLoading;
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    const result = onClick?.(event);
    if (result instanceof Promise) {
      void run(() => result).catch(() => {
        // The caller's promise reports its own failure; here only the loading state ends.
      });
    }
  };
  return (
    <Button
      {...rest}
      className={[className, busy ? LOADING_CLASS : null].filter(Boolean).join(' ') || undefined}
      loading={busy}
      aria-busy={busy || undefined}
      onClick={handleClick}
    />
  );
}

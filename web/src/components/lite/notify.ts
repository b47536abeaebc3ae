/**
 * Notifications of our own (issue 24: no @mantine/notifications in the participant's shell), with
 * the call shape the app used: `notifications.show({ title?, message, color?, autoClose?, id? })`,
 * `notifications.update({ id, … })`, `notifications.hide(id)`. A small store; `<Toaster/>`
 * (toaster.tsx, mounted once in app/providers.tsx) draws it in a live region.
 */
import type { ReactNode } from 'react';

export interface NotificationData {
  id?: string;
  title?: ReactNode;
  message: ReactNode;
  /** A Mantine colour name (red, orange, teal, blue, …): the stripe and, for red, an alert. */
  color?: string;
  /** Milliseconds before it closes by itself (default 4000), or false: it stays until closed. */
  autoClose?: number | boolean;
  onClose?: () => void;
  'data-testid'?: string;
}

export interface Toast extends NotificationData {
  id: string;
}

/** At most this many are shown; older ones leave first. */
const LIMIT = 5;

let toasts: readonly Toast[] = [];
let counter = 0;
const listeners = new Set<() => void>();

function set(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export const notifications = {
  /** Shows a notification (or replaces the one with the same id); answers its id. */
  show(data: NotificationData): string {
    const id = data.id ?? `toast-${++counter}`;
    const toast = { ...data, id };
    const rest = toasts.filter((x) => x.id !== id);
    set([...rest, toast].slice(-LIMIT));
    return id;
  },
  /** Changes a shown notification (its timer starts again); nothing when it is gone. */
  update(data: NotificationData & { id: string }): void {
    if (!toasts.some((x) => x.id === data.id)) return;
    set(toasts.map((x) => (x.id === data.id ? { ...x, ...data } : x)));
  },
  hide(id: string): void {
    const toast = toasts.find((x) => x.id === id);
    if (!toast) return;
    set(toasts.filter((x) => x.id !== id));
    toast.onClose?.();
  },
  /** Closes every notification. */
  clean(): void {
    set([]);
  },
};

/** For the toaster (useSyncExternalStore) and tests. */
export const notificationStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  get: () => toasts,
};

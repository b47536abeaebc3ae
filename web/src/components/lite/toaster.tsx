/**
 * Draws the notifications of notify.ts at the top right: a polite live region (an error is said
 * at once, `role="alert"`), each with a title, its message, a close button named in the reader's
 * language, and its own timer that stops while the pointer or focus is on it (WCAG 2.2.1).
 * Mounted once, in app/providers.tsx.
 */
import { useEffect, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from './dialog';
import { notifications, notificationStore, type Toast } from './notify';
import './toaster.css';

const DEFAULT_AUTO_CLOSE = 4000;

export function Toaster() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(
    notificationStore.subscribe,
    notificationStore.get,
    notificationStore.get,
  );
  return (
    <section className="lite-toaster" aria-label={t('app.a11y.toasts')} data-lite-layer>
      <div aria-live="polite" aria-relevant="additions text">
        {toasts.map((toast) => (
          <ToastView key={toast.id} toast={toast} closeLabel={t('app.a11y.close')} />
        ))}
      </div>
    </section>
  );
}

function ToastView({ toast, closeLabel }: { toast: Toast; closeLabel: string }) {
  const [held, setHeld] = useState(false);
  const delay =
    toast.autoClose === false
      ? null
      : typeof toast.autoClose === 'number'
        ? toast.autoClose
        : DEFAULT_AUTO_CLOSE;
  useEffect(() => {
    if (delay === null || held) return;
    const timer = window.setTimeout(() => notifications.hide(toast.id), delay);
    return () => window.clearTimeout(timer);
    // A new message (update) starts the timer again.
  }, [delay, held, toast.id, toast.message, toast.title]);
  const color = toast.color?.split('.')[0] ?? 'attesta';
  return (
    <div
      className="lite-toast"
      role={color === 'red' ? 'alert' : 'status'}
      style={{ '--toast-color': `var(--mantine-color-${color}-filled)` } as CSSProperties}
      data-testid={toast['data-testid']}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <div className="lite-toast-body">
        {toast.title && <div className="lite-toast-title">{toast.title}</div>}
        <div className="lite-toast-message">{toast.message}</div>
      </div>
      <button
        type="button"
        className="lite-close"
        aria-label={closeLabel}
        onClick={() => notifications.hide(toast.id)}
      >
        <CloseIcon />
      </button>
    </div>
  );
}

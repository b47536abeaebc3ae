/**
 * A modal dialog of our own, and its side drawer form (`drawer="left" | "right"`), for the
 * participant's path (issue 24: no Mantine Modal/Drawer, floating-ui, react-remove-scroll or
 * react-transition-group in the shell). A `role="dialog"` with `aria-modal`, named by its title;
 * on opening, focus goes to the element marked `data-autofocus` or else the close button, Tab and
 * Shift+Tab stay inside, Escape and a click beside it close it (unless told not to), and on closing
 * focus returns to the element that had it. The page behind does not scroll. Rendered in a portal
 * under <body> only while open. Staff pages keep Mantine's Modal.
 */
import { useEffect, useId, useLayoutEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { focusables, lockScroll, modalStack } from './focus';
import './dialog.css';

export interface DialogProps {
  opened: boolean;
  onClose: () => void;
  /** The dialog's name: its heading. */
  title: ReactNode;
  children: ReactNode;
  /** The width: sm, md (a dialog's default), lg or a CSS length; a drawer is `min(440px, 85vw)` by default. */
  size?: 'sm' | 'md' | 'lg' | string;
  /** A side drawer instead of a centred dialog. */
  drawer?: 'left' | 'right';
  /** Escape closes it (default true). */
  closeOnEscape?: boolean;
  /** A click on the backdrop closes it (default true). */
  closeOnClickOutside?: boolean;
  'data-testid'?: string;
}

const SIZES: Record<string, string> = { sm: '380px', md: '440px', lg: '620px' };

export function Dialog(props: DialogProps) {
  return props.opened ? createPortal(<OpenDialog {...props} />, document.body) : null;
}

function OpenDialog({
  onClose,
  title,
  children,
  size,
  drawer,
  closeOnEscape = true,
  closeOnClickOutside = true,
  'data-testid': testId,
}: DialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // The latest props for the listeners set up once.
  const latest = useRef({ onClose, closeOnEscape });
  useLayoutEffect(() => {
    latest.current = { onClose, closeOnEscape };
  });

  useEffect(() => {
    const dialog = ref.current!;
    const token = {};
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    modalStack.push(token);
    const unlock = lockScroll();
    const first = () =>
      dialog.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(dialog)[0] ?? dialog;
    first().focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (!modalStack.isTop(token)) return;
      if (event.key === 'Escape') {
        if (!latest.current.closeOnEscape) return;
        event.preventDefault();
        event.stopPropagation();
        latest.current.onClose();
      } else if (event.key === 'Tab') {
        const items = focusables(dialog);
        if (!items.length) {
          event.preventDefault();
          dialog.focus();
          return;
        }
        const active = document.activeElement;
        const last = items[items.length - 1]!;
        if (event.shiftKey && (active === items[0] || active === dialog || !dialog.contains(active))) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
          event.preventDefault();
          items[0]!.focus();
        }
      }
    };
    // Focus that lands outside (a click on the page behind, a script) comes back in.
    const onFocusIn = (event: FocusEvent) => {
      if (!modalStack.isTop(token)) return;
      const target = event.target;
      if (target instanceof Node && !dialog.contains(target) && !isOwnedByLayerAbove(target)) first().focus();
    };
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
      modalStack.remove(token);
      unlock();
      // Back to the opener, unless focus already went somewhere else on purpose.
      const active = document.activeElement;
      const lost = !active || active === document.body || dialog.contains(active);
      if (lost && opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  const onBackdrop = (event: MouseEvent) => {
    if (event.target === event.currentTarget && closeOnClickOutside) onClose();
  };
  const width = size ? (SIZES[size] ?? size) : drawer ? undefined : SIZES.md;

  return (
    <div className="lite-dialog-root" data-drawer={drawer}>
      <div className="lite-dialog-overlay" aria-hidden="true" />
      <div className="lite-dialog-frame" onMouseDown={onBackdrop}>
        <div
          ref={ref}
          className="lite-dialog"
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          tabIndex={-1}
          style={width ? { width } : undefined}
          data-testid={testId}
        >
          <div className="lite-dialog-header">
            <h2 className="lite-dialog-title" id={titleId}>
              {title}
            </h2>
            <button type="button" className="lite-close" aria-label={t('app.a11y.close')} onClick={onClose}>
              <CloseIcon />
            </button>
          </div>
          <div className="lite-dialog-body">{children}</div>
        </div>
      </div>
    </div>
  );
}

/** Toasts sit above dialogs and may take focus (their close button) without being pulled back. */
function isOwnedByLayerAbove(target: Node): boolean {
  return target instanceof Element && target.closest('[data-lite-layer]') !== null;
}

export function CloseIcon() {
  return (
    <svg viewBox="0 0 15 15" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d="M11.78 4.28a.75.75 0 0 0-1.06-1.06L7.5 6.44 4.28 3.22a.75.75 0 0 0-1.06 1.06L6.44 7.5 3.22 10.72a.75.75 0 1 0 1.06 1.06L7.5 8.56l3.22 3.22a.75.75 0 1 0 1.06-1.06L8.56 7.5l3.22-3.22Z"
        fill="currentColor"
      />
    </svg>
  );
}

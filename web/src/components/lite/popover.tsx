/**
 * A disclosure popover of our own for the participant's path (issue 24: no Mantine Popover or
 * floating-ui in the shell). The button says whether its panel is open (`aria-expanded`) and which
 * it is (`aria-controls`); the panel follows the button in the document, so Tab goes from the
 * button into it, and is placed under the button (above it when there is no room below) by a few
 * lines of layout code, kept inside the window. Opening moves focus to the panel's first control;
 * Escape closes it and gives focus back to the button; a click outside closes it, and so does focus
 * leaving it.
 */
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type ReactNode,
  type Ref,
} from 'react';
import { focusables } from './focus';
import './popover.css';

export interface PopoverTargetProps {
  ref: Ref<HTMLButtonElement>;
  'aria-expanded': boolean;
  'aria-controls': string;
  onClick: () => void;
}

export interface PopoverProps {
  /** Draws the button with the props given (a Mantine Button or ActionIcon takes them as they are). */
  target: (props: PopoverTargetProps) => ReactNode;
  children: ReactNode;
  /** The panel's width in pixels (never wider than the window). */
  width?: number;
  /** Which edge of the button the panel lines up with. */
  align?: 'start' | 'end';
  /** Focus goes into the panel when it opens (default true). */
  focusOnOpen?: boolean;
  /** Open or not, when the caller keeps the state (with `onChange`); otherwise the popover keeps it. */
  opened?: boolean;
  onChange?: (opened: boolean) => void;
  /** Attributes of the panel (data-testid, aria-label, onKeyDown, …). */
  panelProps?: HTMLAttributes<HTMLDivElement> & { 'data-testid'?: string };
}

const GAP = 8;

export function Popover({
  target,
  children,
  width,
  align = 'end',
  focusOnOpen = true,
  panelProps,
  ...controlled
}: PopoverProps) {
  const [own, setOwn] = useState(false);
  const opened = controlled.opened ?? own;
  const onChangeRef = useRef(controlled.onChange);
  useLayoutEffect(() => {
    onChangeRef.current = controlled.onChange;
  });
  const setOpened = useCallback((next: boolean) => {
    setOwn(next);
    onChangeRef.current?.(next);
  }, []);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const wrapRef = useRef<HTMLSpanElement>(null);

  const close = useCallback(
    (refocus: boolean) => {
      setOpened(false);
      if (refocus) buttonRef.current?.focus();
    },
    [setOpened],
  );

  // Place the panel under (or above) the button, inside the window; again on resize and scroll.
  useLayoutEffect(() => {
    if (!opened) return;
    const place = () => {
      const button = buttonRef.current;
      const panel = panelRef.current;
      if (!button || !panel) return;
      const b = button.getBoundingClientRect();
      const vw = document.documentElement.clientWidth || window.innerWidth;
      const vh = window.innerHeight;
      panel.style.maxHeight = '';
      const p = panel.getBoundingClientRect();
      const below = vh - b.bottom - 2 * GAP;
      const above = b.top - 2 * GAP;
      const under = p.height <= below || below >= above;
      const room = Math.max(below, above);
      if (p.height > room) panel.style.maxHeight = `${Math.max(room, 120)}px`;
      const height = Math.min(p.height, Math.max(room, 120));
      const top = under ? b.bottom + GAP : b.top - GAP - height;
      const left = align === 'end' ? b.right - p.width : b.left;
      panel.style.top = `${Math.max(GAP, top)}px`;
      panel.style.left = `${Math.min(Math.max(GAP, left), Math.max(GAP, vw - p.width - GAP))}px`;
      panel.dataset.side = under ? 'bottom' : 'top';
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [opened, align]);

  useEffect(() => {
    if (!opened) return;
    if (focusOnOpen) {
      const panel = panelRef.current;
      if (panel) (focusables(panel)[0] ?? panel).focus();
    }
    const onPointerDown = (event: PointerEvent | MouseEvent) => {
      if (event.target instanceof Node && !wrapRef.current?.contains(event.target)) close(false);
    };
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !wrapRef.current?.contains(event.target)) close(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [opened, focusOnOpen, close]);

  const { onKeyDown, style, className, ...rest } = panelProps ?? {};
  return (
    <span
      ref={wrapRef}
      className="lite-popover-wrap"
      onKeyDown={(event) => {
        if (opened && event.key === 'Escape') {
          event.stopPropagation();
          close(true);
        }
      }}
    >
      {target({
        ref: buttonRef,
        'aria-expanded': opened,
        'aria-controls': id,
        onClick: () => setOpened(!opened),
      })}
      <div
        {...rest}
        ref={panelRef}
        id={id}
        className={className ? `lite-popover ${className}` : 'lite-popover'}
        hidden={!opened}
        tabIndex={-1}
        style={{ ...style, width: width ? `min(${width}px, calc(100vw - ${2 * GAP}px))` : undefined }}
        onKeyDown={onKeyDown}
      >
        {opened && children}
      </div>
    </span>
  );
}

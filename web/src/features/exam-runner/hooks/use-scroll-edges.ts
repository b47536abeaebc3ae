import { useCallback, useEffect, useState, type RefObject } from 'react';

export interface ScrollEdges {
  /** Content is hidden before the visible part (scrolled away to the left). */
  before: boolean;
  /** Content is hidden after the visible part (more to the right). */
  after: boolean;
}

/** Within a pixel counts as the edge: zoom gives fractional scroll positions. */
const SLACK = 1;

/** Where a sideways scroller hides content; follows scrolling, resizing and new content. */
export function useScrollEdges(ref: RefObject<HTMLElement | null>, contentKey: unknown): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({ before: false, after: false });
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const before = el.scrollLeft > SLACK;
    const after = el.scrollLeft + el.clientWidth < el.scrollWidth - SLACK;
    setEdges((prev) => (prev.before === before && prev.after === after ? prev : { before, after }));
  }, [ref]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [ref, measure, contentKey]);

  return edges;
}

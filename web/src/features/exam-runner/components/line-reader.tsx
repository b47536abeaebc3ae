/**
 * The reading ruler (issue 14, item 2): a horizontal band over the page that follows the pointer,
 * and the focused element when the keyboard moves. Decorative: hidden from assistive technology,
 * and it lets every click through.
 */
import { useEffect, useState } from 'react';

export const LINE_READER_HEIGHT_EM = 2.4;

export function LineReader() {
  const [top, setTop] = useState<number | null>(null);
  useEffect(() => {
    const onMove = (e: PointerEvent) => setTop(e.clientY);
    const onFocus = (e: FocusEvent) => {
      const target = e.target;
      if (!(target instanceof Element)) return;
      const rect = target.getBoundingClientRect();
      setTop(rect.top + rect.height / 2);
    };
    window.addEventListener('pointermove', onMove, { passive: true });
    document.addEventListener('focusin', onFocus);
    return () => {
      window.removeEventListener('pointermove', onMove);
      document.removeEventListener('focusin', onFocus);
    };
  }, []);
  return (
    <div
      className="line-reader"
      aria-hidden="true"
      data-testid="line-reader"
      style={{
        top: top === null ? '40%' : `calc(${top}px - ${LINE_READER_HEIGHT_EM / 2}em)`,
        height: `${LINE_READER_HEIGHT_EM}em`,
      }}
    />
  );
}

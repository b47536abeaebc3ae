/** Slots of a RichHtml rendered `withSlots`: where inline fields, spans or parts go (`{{id}}`). */
import { useMemo, useState } from 'react';

/**
 * Keep the rendered element with `setRoot` (its `ref`); `slots` maps each placeholder id to its
 * empty span (the first one of an id). The text is keyed by its html, so a new text is a new root.
 */
export function useHtmlSlots() {
  const [root, setRoot] = useState<HTMLElement | null>(null);
  const slots = useMemo(() => {
    if (!root) return null;
    const found = new Map<string, Element>();
    root.querySelectorAll('[data-blank]').forEach((el) => {
      const id = el.getAttribute('data-blank');
      if (id && !found.has(id)) found.set(id, el);
    });
    return found;
  }, [root]);
  return { setRoot, slots };
}

/** The slot stands among words (a field inside a sentence), not alone in a block of its own. */
export function inRunningText(slot: Element): boolean {
  const parent = slot.parentElement;
  if (!parent) return false;
  return [...parent.childNodes].some(
    (node) =>
      node !== slot &&
      ((node.textContent ?? '').trim() !== '' || (node instanceof Element && node.tagName === 'IMG')),
  );
}

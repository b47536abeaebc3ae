/**
 * Task html whose `{{id}}` places are filled with React content: what a cloze, gap match, hottext or
 * composite task looks like with something in its places (a result page shows the answers there).
 * The html is rendered once by RichHtml (sanitized, formulas kept), the fillings are portals into
 * its slots; ids without a place in the text are listed after it, so nothing is lost.
 */
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useHtmlSlots } from './html-slots';
import { RichHtml } from './rich-html';

interface FilledHtmlProps {
  html: string;
  /** The places to fill, in display order. */
  ids: readonly string[];
  fill: (id: string) => ReactNode;
  className?: string;
}

export function FilledHtml({ html, ids, fill, className }: FilledHtmlProps) {
  const { setRoot, slots } = useHtmlSlots();
  const orphans = slots ? ids.filter((id) => !slots.has(id)) : [];
  return (
    <div className={className}>
      <RichHtml key={html} ref={setRoot} html={html} withSlots className="task-html" />
      {ids.map((id) => {
        const slot = slots?.get(id);
        return slot ? createPortal(fill(id), slot, id) : null;
      })}
      {orphans.length > 0 && (
        <ul className="filled-html-orphans">
          {orphans.map((id) => (
            <li key={id}>{fill(id)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A disclosure (one accordion item) without Mantine's Accordion (issue 24): a heading holding a
 * button with aria-expanded that shows or hides the region it controls (aria-controls; the region
 * is labelled by the button). The closed region stays in the document, hidden, so what it loads
 * is not lost on closing. Several in a `DisclosureGroup` look like Mantine's «separated» accordion.
 */
import { useId, useState, type ReactNode } from 'react';
import './disclosure.css';

interface DisclosureProps {
  title: ReactNode;
  children: ReactNode;
  defaultOpen?: boolean;
  /** Level of the heading that holds the button. */
  headingLevel?: 2 | 3 | 4;
  'data-testid'?: string;
}

export function Disclosure({
  title,
  children,
  defaultOpen = false,
  headingLevel = 3,
  ...rest
}: DisclosureProps) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="lite-disclosure" data-open={open || undefined} data-testid={rest['data-testid']}>
      <Heading className="lite-disclosure__heading">
        <button
          type="button"
          id={`${id}-button`}
          className="lite-disclosure__button"
          aria-expanded={open}
          aria-controls={`${id}-region`}
          onClick={() => setOpen((was) => !was)}
        >
          <span className="lite-disclosure__title">{title}</span>
          <svg
            className="lite-disclosure__chevron"
            viewBox="0 0 15 15"
            width="16"
            height="16"
            aria-hidden="true"
          >
            <path d="M3.1 5.6 7.5 10l4.4-4.4" fill="none" stroke="currentColor" strokeWidth="1.5" />
          </svg>
        </button>
      </Heading>
      <div
        id={`${id}-region`}
        role="region"
        aria-labelledby={`${id}-button`}
        className="lite-disclosure__panel"
        hidden={!open}
      >
        {children}
      </div>
    </div>
  );
}

/** Disclosures one under another, spaced like a separated accordion. */
export function DisclosureGroup({ children, ...rest }: { children: ReactNode; 'data-testid'?: string }) {
  return (
    <div className="lite-disclosure-group" data-testid={rest['data-testid']}>
      {children}
    </div>
  );
}

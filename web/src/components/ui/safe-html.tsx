import type { ElementType } from 'react';
import { useMemo } from 'react';
import { sanitizeHtmlOrEmpty } from '../../lib/sanitize';

interface SafeHtmlProps {
  html: string | null | undefined;
  as?: ElementType;
  className?: string;
}

/** The only way server-supplied markup reaches the DOM: through the sanitizer (spec §5). */
export function SafeHtml({ html, as: Tag = 'div', className }: SafeHtmlProps) {
  const clean = useMemo(() => sanitizeHtmlOrEmpty(html), [html]);
  return (
    <Tag
      className={['safe-html', className].filter(Boolean).join(' ')}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}

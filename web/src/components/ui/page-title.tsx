import { Title, type TitleOrder } from '../lite/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface PageTitleProps {
  children: ReactNode;
  /** Text for the browser tab when `children` is not plain text. */
  documentTitle?: string;
  order?: TitleOrder;
  'data-testid'?: string;
}

/**
 * The page's h1. After every navigation it takes focus, so screen-reader and keyboard users start
 * at the new page's heading instead of the link they activated on the old one.
 */
export function PageTitle({ children, documentTitle, order = 1, ...rest }: PageTitleProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { t } = useTranslation();
  const text = documentTitle ?? (typeof children === 'string' ? children : '');

  useEffect(() => {
    document.title = text ? `${text} — ${t('app.name')}` : t('app.name');
  }, [text, t]);

  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, []);

  return (
    <Title ref={ref} order={order} tabIndex={-1} className="page-title" data-testid={rest['data-testid']}>
      {children}
    </Title>
  );
}

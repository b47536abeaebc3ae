/**
 * An entry of a side menu without Mantine's NavLink (issue 24): a router link marked as the open
 * page (`aria-current="page"`), or a button for a list that opens things in place.
 */
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { Link } from 'react-router';
import './nav-link.css';

interface NavLinkProps {
  to: string;
  label: ReactNode;
  active?: boolean;
  'data-testid'?: string;
}

export function NavLink({ to, label, active = false, ...rest }: NavLinkProps) {
  return (
    <Link
      to={to}
      className="lite-nav-link"
      data-active={active || undefined}
      aria-current={active ? 'page' : undefined}
      data-testid={rest['data-testid']}
    >
      {label}
    </Link>
  );
}

export function NavButton({
  label,
  className,
  ...rest
}: { label: ReactNode } & ComponentPropsWithoutRef<'button'>) {
  return (
    <button type="button" className={['lite-nav-link', className].filter(Boolean).join(' ')} {...rest}>
      {label}
    </button>
  );
}

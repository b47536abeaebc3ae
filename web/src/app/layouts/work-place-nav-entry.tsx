import { useLocation } from 'react-router';
import { NavLink } from '../../components/lite/nav-link';

export interface NavItem {
  to: string;
  label: string;
  end?: boolean;
}

/** One entry of the side navigation, marked when its page is open. */
export function NavEntry({ item }: { item: NavItem }) {
  const { pathname } = useLocation();
  const active = item.end ? pathname === item.to : pathname.startsWith(item.to);
  return (
    <NavLink
      to={item.to}
      label={item.label}
      active={active}
      data-testid={`nav-${item.to.slice(1).replace(/\//g, '-')}`}
    />
  );
}

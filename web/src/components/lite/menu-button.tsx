/**
 * The «menu» button of a narrow screen without Mantine's Burger (issue 24): three lines that turn
 * into a cross when the menu is open; a named button with aria-expanded (and aria-controls when the
 * menu has an id).
 */
import './menu-button.css';

interface MenuButtonProps {
  opened: boolean;
  onClick: () => void;
  label: string;
  controls?: string;
  className?: string;
  'data-testid'?: string;
}

export function MenuButton({ opened, onClick, label, controls, className, ...rest }: MenuButtonProps) {
  return (
    <button
      type="button"
      className={['lite-menu-button', className].filter(Boolean).join(' ')}
      aria-label={label}
      aria-expanded={opened}
      aria-controls={controls}
      data-opened={opened || undefined}
      data-testid={rest['data-testid']}
      onClick={onClick}
    >
      <span className="lite-menu-button__lines" aria-hidden="true" />
    </button>
  );
}

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Badge } from './badge';
import { Code, Kbd } from './kbd';
import { MenuButton } from './menu-button';
import { NavButton, NavLink } from './nav-link';
import { Progress } from './progress';
import { Table } from './table';

describe('the small lite components', () => {
  it('MenuButton: a named button that says whether the menu it controls is open', async () => {
    const onClick = vi.fn();
    const { rerender } = render(<MenuButton opened={false} onClick={onClick} label="Menu" controls="nav" />);
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', 'nav');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
    rerender(<MenuButton opened onClick={onClick} label="Menu" controls="nav" />);
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('NavLink marks the open page; NavButton is a button', () => {
    render(
      <MemoryRouter>
        <NavLink to="/participant" label="Home" active data-testid="nav-home" />
        <NavLink to="/participant/result" label="Result" />
        <NavButton label="A section" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/participant');
    expect(screen.getByRole('link', { name: 'Result' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('button', { name: 'A section' })).toHaveAttribute('type', 'button');
  });

  it('Progress: a named progressbar with its value, or decoration beside a text', () => {
    const { rerender, container } = render(<Progress value={42.4} label="Uploading" />);
    const bar = screen.getByRole('progressbar', { name: 'Uploading' });
    expect(bar).toHaveAttribute('aria-valuenow', '42');
    rerender(<Progress value={150} label="Uploading" />);
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    rerender(<Progress indeterminate fixedTop />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
  });

  it('Table keeps native table semantics; Badge, Kbd and Code are their elements', () => {
    render(
      <>
        <Table variant="vertical" fixed>
          <tbody>
            <tr>
              <th scope="row">Subject</th>
              <td>
                <Badge data-testid="badge">Maths</Badge> <Kbd>Ctrl</Kbd> <Code>not_found</Code>
              </td>
            </tr>
          </tbody>
        </Table>
      </>,
    );
    expect(screen.getByRole('table')).toHaveAttribute('data-variant', 'vertical');
    expect(screen.getByRole('rowheader', { name: 'Subject' })).toBeInTheDocument();
    expect(screen.getByRole('cell')).toHaveTextContent('Maths Ctrl not_found');
    expect(screen.getByTestId('badge')).toHaveTextContent('Maths');
    expect(screen.getByText('Ctrl').tagName).toBe('KBD');
    expect(screen.getByText('not_found').tagName).toBe('CODE');
  });
});

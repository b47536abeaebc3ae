import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Disclosure, DisclosureGroup } from './disclosure';

describe('lite Disclosure', () => {
  it('a button in a heading says whether its region is open and controls it', async () => {
    render(
      <DisclosureGroup data-testid="group">
        <Disclosure title="Description" headingLevel={2}>
          <p>what the test is</p>
        </Disclosure>
        <Disclosure title="Procedure" defaultOpen>
          <p>how it goes</p>
        </Disclosure>
      </DisclosureGroup>,
    );
    const description = screen.getByRole('button', { name: 'Description' });
    const procedure = screen.getByRole('button', { name: 'Procedure' });
    expect(screen.getByRole('heading', { level: 2, name: 'Description' })).toContainElement(description);
    expect(screen.getByRole('heading', { level: 3, name: 'Procedure' })).toContainElement(procedure);
    expect(description).toHaveAttribute('aria-expanded', 'false');
    expect(procedure).toHaveAttribute('aria-expanded', 'true');
    // The open one is a region named by its button; the closed one is hidden, not removed.
    const region = screen.getByRole('region', { name: 'Procedure' });
    expect(region).toHaveAttribute('id', procedure.getAttribute('aria-controls'));
    expect(region).toHaveTextContent('how it goes');
    expect(screen.queryByRole('region', { name: 'Description' })).toBeNull();
    expect(screen.getByText('what the test is')).not.toBeVisible();
    expect(document.getElementById(description.getAttribute('aria-controls')!)).toHaveAttribute('hidden');
  });

  it('opens and closes by click, Enter and Space; each one on its own', async () => {
    render(
      <>
        <Disclosure title="One">
          <p>first</p>
        </Disclosure>
        <Disclosure title="Two">
          <p>second</p>
        </Disclosure>
      </>,
    );
    const user = userEvent.setup();
    const one = screen.getByRole('button', { name: 'One' });
    await user.click(one);
    expect(one).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('first')).toBeVisible();
    expect(screen.getByText('second')).not.toBeVisible();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Two' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('second')).toBeVisible();
    expect(screen.getByText('first')).toBeVisible();
    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Two' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('second')).not.toBeVisible();
  });
});

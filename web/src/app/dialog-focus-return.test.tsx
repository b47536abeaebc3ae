import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDialogFocusReturn } from './dialog-focus-return';

function Guard() {
  useDialogFocusReturn();
  return null;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('useDialogFocusReturn', () => {
  it('gives focus back to the opener when a dialog is removed with focus inside it', async () => {
    render(<Guard />);
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    const portal = document.createElement('div');
    portal.innerHTML = '<div role="dialog"><input></div>';
    document.body.append(portal);
    portal.querySelector('input')!.focus();
    expect(document.activeElement).not.toBe(opener);

    portal.remove();
    await tick();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  it('leaves focus alone when something else is removed', async () => {
    render(<Guard />);
    const opener = document.createElement('button');
    const other = document.createElement('div');
    document.body.append(opener, other);
    opener.focus();
    opener.blur();
    other.remove();
    await tick();
    expect(document.activeElement).toBe(document.body);
    opener.remove();
  });
});

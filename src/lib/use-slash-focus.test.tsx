// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { useSlashFocus } from './use-slash-focus';

afterEach(cleanup);

function Page({ dialog = false }: { dialog?: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  useSlashFocus(ref);
  return (
    <>
      <input aria-label="Search" ref={ref} />
      <textarea aria-label="Notes" />
      {dialog && <div role="dialog" aria-label="Open dialog" />}
    </>
  );
}

describe('useSlashFocus', () => {
  it('moves focus to the search box on "/" from the page', () => {
    render(<Page />);
    fireEvent.keyDown(document.body, { key: '/' });
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveFocus();
  });

  it('leaves "/" alone while typing in a field or with a dialog open', () => {
    const { unmount } = render(<Page />);
    const notes = screen.getByRole('textbox', { name: 'Notes' });
    notes.focus();
    fireEvent.keyDown(notes, { key: '/' });
    expect(notes).toHaveFocus();
    unmount();
    render(<Page dialog />);
    fireEvent.keyDown(document.body, { key: '/' });
    expect(screen.getByRole('textbox', { name: 'Search' })).not.toHaveFocus();
  });
});

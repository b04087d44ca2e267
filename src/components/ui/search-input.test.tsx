// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { SearchInput } from './search-input';

afterEach(cleanup);

function Box({ onCommit, initial = '' }: { onCommit?: (value: string) => void; initial?: string }) {
  const [value, setValue] = useState(initial);
  return <SearchInput label="Search servers" value={value} onValueChange={setValue} onCommit={onCommit} />;
}

describe('SearchInput', () => {
  it('is a labelled search box inside a search landmark', () => {
    render(<Box />);
    const box = screen.getByRole('searchbox', { name: 'Search servers' });
    expect(screen.getByRole('search')).toContainElement(box);
    expect(screen.queryByRole('button', { name: 'Clear the search' })).not.toBeInTheDocument();
  });

  it('applies on Enter, and clears with Escape or the clear button', async () => {
    const onCommit = vi.fn();
    render(<Box onCommit={onCommit} />);
    const ue = userEvent.setup();
    const box = screen.getByRole('searchbox', { name: 'Search servers' });
    await ue.type(box, 'lobby{Enter}');
    expect(onCommit).toHaveBeenLastCalledWith('lobby');
    await ue.keyboard('{Escape}');
    expect(box).toHaveValue('');
    expect(onCommit).toHaveBeenLastCalledWith('');
    await ue.type(box, 'x');
    await ue.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(box).toHaveValue('');
    expect(onCommit).toHaveBeenCalledTimes(3);
  });
});

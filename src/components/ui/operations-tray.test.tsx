// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { OperationsTray, type Operation } from './operations-tray';

afterEach(cleanup);

describe('OperationsTray', () => {
  it('shows a bar where progress is known, words where it is not, the error of a failed one, and its action', () => {
    const dismiss = vi.fn();
    render(
      <OperationsTray
        label="Work"
        operations={[
          { id: 1, title: 'a.zip', detail: '2 KiB', status: 'running', progress: 0.42, progressLabel: 'Upload of a.zip', statusText: '42%' },
          { id: 2, title: 'Backup “Nightly”', status: 'running', statusText: 'Running' },
          {
            id: 3,
            title: 'Backup “Old”',
            status: 'error',
            statusText: 'Failed',
            message: 'The backup failed.',
            action: { label: 'Dismiss', ariaLabel: 'Dismiss Backup “Old”', onClick: dismiss },
          },
        ]}
      />,
    );
    const tray = screen.getByRole('region', { name: 'Work' });
    expect(screen.getByRole('progressbar', { name: 'Upload of a.zip' })).toHaveAttribute('aria-valuenow', '42');
    expect(tray).toHaveTextContent('Running');
    // Without a known progress: a bar with no value, its state in words.
    const unknown = screen.getByRole('progressbar', { name: 'Backup “Nightly”' });
    expect(unknown).not.toHaveAttribute('aria-valuenow');
    expect(unknown).toHaveAttribute('aria-valuetext', 'Running');
    expect(screen.getAllByRole('progressbar')).toHaveLength(2);
    expect(screen.getByRole('alert')).toHaveTextContent('Backup “Old”: The backup failed.');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss Backup “Old”' }));
    expect(dismiss).toHaveBeenCalledOnce();
  });

  it('shows nothing without operations', () => {
    render(<OperationsTray label="Work" operations={[]} />);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('gives focus to the next row, then the previous, then the page when dismissing takes a row away', async () => {
    function Tray() {
      const [ids, setIds] = useState([1, 2, 3]);
      const operations: Operation[] = ids.map((id) => ({
        id,
        title: `Backup ${id}`,
        status: 'done',
        statusText: 'Completed',
        action: { label: 'Dismiss', ariaLabel: `Dismiss ${id}`, onClick: () => setIds((all) => all.filter((x) => x !== id)) },
      }));
      return (
        <main id="main" tabIndex={-1}>
          <OperationsTray label="Work" operations={operations} />
        </main>
      );
    }
    render(<Tray />);
    const dismiss = (id: number) => fireEvent.click(screen.getByRole('button', { name: `Dismiss ${id}` }));
    dismiss(2);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Dismiss 3' })).toHaveFocus());
    dismiss(3);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Dismiss 1' })).toHaveFocus());
    dismiss(1);
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });
});

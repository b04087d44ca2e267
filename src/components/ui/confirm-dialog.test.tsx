// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from './confirm-dialog';
import { DropdownMenu, DropdownMenuItem } from './dropdown-menu';

afterEach(cleanup);

type Run = (signal: AbortSignal) => Promise<void>;

function Harness({ run }: { run: Run }) {
  const [open, setOpen] = useState(true);
  const mutation = useMutation({ mutationFn: (signal: AbortSignal) => run(signal) });
  return (
    <>
      <p>{open ? 'open' : 'closed'}</p>
      <button type="button" onClick={() => setOpen(true)}>
        Reopen
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Delete “a.txt”?"
        confirmLabel="Delete"
        danger
        mutation={mutation}
        onConfirm={(signal) => mutation.mutateAsync(signal)}
      />
    </>
  );
}

function setup(run: Run) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Harness run={run} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const dialog = () => screen.getByRole('dialog', { name: 'Delete “a.txt”?' });

describe('ConfirmDialog', () => {
  it('shows the mutation’s error and stays open; opening again starts clean', async () => {
    const ue = setup(() => Promise.reject(new Error('Permission denied.')));
    await ue.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('Permission denied.');
    await ue.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('closed')).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(within(dialog()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('disables confirm while running, keeps Cancel usable, aborts on cancel', async () => {
    let seen: AbortSignal | undefined;
    const ue = setup(
      (signal) =>
        new Promise<void>((_resolve, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    await ue.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(dialog()).getByRole('button', { name: /Delete/ })).toBeDisabled());
    await ue.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('closed')).toBeInTheDocument();
    expect(seen?.aborted).toBe(true);
  });

  it('closes once the action succeeds', async () => {
    const run = vi.fn<Run>(() => Promise.resolve());
    const ue = setup(run);
    await ue.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByText('closed')).toBeInTheDocument());
    expect(run).toHaveBeenCalledTimes(1);
  });

  describe('focus after closing', () => {
    /** A row whose button opens the dialog; confirming deletes the row, as on the network page. */
    function Row() {
      const [open, setOpen] = useState(false);
      const [gone, setGone] = useState(false);
      return (
        <main id="main" tabIndex={-1}>
          {!gone && (
            <button type="button" onClick={() => setOpen(true)}>
              Delete row
            </button>
          )}
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            title="Delete the row?"
            confirmLabel="Delete"
            onConfirm={() => {
              setGone(true);
              return Promise.resolve();
            }}
          />
        </main>
      );
    }

    it('goes back to the button that opened the dialog when it is cancelled', async () => {
      const ue = userEvent.setup();
      render(<Row />);
      await ue.click(screen.getByRole('button', { name: 'Delete row' }));
      await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Delete row' })).toHaveFocus());
      await ue.click(screen.getByRole('button', { name: 'Delete row' }));
      await ue.keyboard('{Escape}');
      await waitFor(() => expect(screen.getByRole('button', { name: 'Delete row' })).toHaveFocus());
    });

    it('goes to the main region, not <body>, when that button is gone', async () => {
      const ue = userEvent.setup();
      render(<Row />);
      await ue.click(screen.getByRole('button', { name: 'Delete row' }));
      await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByRole('main')).toHaveFocus();
    });

    it('goes back to the menu button when a menu item opened the dialog', async () => {
      function MenuRow() {
        const [open, setOpen] = useState(false);
        return (
          <>
            <DropdownMenu trigger={<button type="button">Actions</button>}>
              <DropdownMenuItem onSelect={() => setOpen(true)}>Restore</DropdownMenuItem>
            </DropdownMenu>
            <ConfirmDialog open={open} onOpenChange={setOpen} title="Restore?" confirmLabel="Restore" onConfirm={() => undefined} />
          </>
        );
      }
      const ue = userEvent.setup();
      render(<MenuRow />);
      await ue.click(screen.getByRole('button', { name: 'Actions' }));
      await ue.click(await screen.findByRole('menuitem', { name: 'Restore' }));
      await ue.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus());
    });
  });
});

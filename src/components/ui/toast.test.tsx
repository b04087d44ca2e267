// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { toast, Toaster } from './toast';

afterEach(cleanup);

describe('toast', () => {
  it('renders nothing until the first toast, then loads the toaster and shows it', async () => {
    const { container } = render(<Toaster />);
    expect(container).toBeEmptyDOMElement();
    act(() => toast.success('Saved server.properties'));
    expect(await screen.findByText('Saved server.properties')).toBeInTheDocument();
    act(() => toast.error('The copy failed.'));
    expect(await screen.findByText('The copy failed.')).toBeInTheDocument();
  });
});

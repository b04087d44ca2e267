// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { makeEntry } from '../../test/server-test-fixtures';
import { ActivityEntry } from './activity-entry';

afterEach(cleanup);

function show(entry = makeEntry(), onFilterEvent = vi.fn()) {
  render(
    <ol>
      <ActivityEntry entry={entry} now={new Date()} onFilterEvent={onFilterEvent} />
    </ol>,
  );
  return onFilterEvent;
}

describe('ActivityEntry', () => {
  it('shows event, sentence, actor and relative time with the absolute one in the title', () => {
    show();
    expect(screen.getByRole('button', { name: 'Filter by server:power.start' })).toBeInTheDocument();
    expect(screen.getByText('Started the server')).toBeInTheDocument();
    expect(screen.getByText('dana')).toBeInTheDocument();
    const time = screen.getByText('5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('title')).toBeTruthy();
  });

  it('names the system when there is no actor, and shows API badge and IP', () => {
    show(makeEntry({ is_api: true, ip: '203.0.113.9', relationships: { actor: { object: 'null_resource', attributes: null } } }));
    expect(screen.getByText('System')).toBeInTheDocument();
    expect(screen.getByText('API')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.9')).toBeInTheDocument();
  });

  it('names the schedule as the actor of what its run did, keeping the sentence', () => {
    show(
      makeEntry({
        event: 'server:power.restart',
        properties: { schedule: 'Nightly restart', action: 'restart' },
        relationships: { actor: { object: 'null_resource', attributes: null } },
      }),
    );
    expect(screen.getByText('Schedule “Nightly restart”')).toBeInTheDocument();
    expect(screen.queryByText('System')).toBeNull();
    expect(screen.getByText('Restarted the server')).toBeInTheDocument();
  });

  it('marks what was done over SFTP, with its sentence', () => {
    show(makeEntry({ event: 'server:sftp.rename', properties: { files: [{ from: '/a.txt', to: '/b.txt' }], count: 1, using_sftp: true } }));
    expect(screen.getByText('SFTP')).toBeInTheDocument();
    expect(screen.getByText('Renamed /a.txt to /b.txt')).toBeInTheDocument();
  });

  it('filters by the event when its name is clicked', () => {
    const onFilter = show();
    fireEvent.click(screen.getByRole('button', { name: 'Filter by server:power.start' }));
    expect(onFilter).toHaveBeenCalledWith('server:power.start');
  });

  // attacks T-XSS-3
  it('expands properties on demand, rendering hostile values as text', () => {
    const hostile = '<img src=x onerror="window.pwned=1">';
    const { container } = render(
      <ol>
        <ActivityEntry
          entry={makeEntry({ event: 'server:file.write', properties: { file: hostile, meta: { a: [1, 2] } } })}
          now={new Date()}
          onFilterEvent={() => {}}
        />
      </ol>,
    );
    const details = screen.getByRole('button', { name: 'Details' });
    expect(details).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(details);
    expect(details).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('meta')).toBeInTheDocument();
    expect(screen.getAllByText(hostile).length).toBeGreaterThan(0);
    expect(screen.getByText(/"a": \[/)).toBeInTheDocument();
    expect(container.querySelector('img')).toBeNull();
  });

  it('has no Details button without properties', () => {
    show();
    expect(screen.queryByRole('button', { name: 'Details' })).not.toBeInTheDocument();
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { CommandInput } from './command-input';
import { HISTORY_LIMIT, loadHistory, pushHistory } from './command-history';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

function renderInput(uuid = 'server-a', sent: string[] = []) {
  render(<CommandInput serverUuid={uuid} disabledReason={null} onSend={(c) => (sent.push(c), true)} />);
  return { input: screen.getByRole('textbox', { name: 'Console command' }), sent };
}

const type = (input: HTMLElement, text: string) => fireEvent.change(input, { target: { value: text } });
const key = (input: HTMLElement, k: string) => fireEvent.keyDown(input, { key: k });

describe('command history', () => {
  it('keeps the last 50 commands per server, newest last, without repeating the last one', () => {
    for (let i = 0; i < HISTORY_LIMIT + 10; i += 1) pushHistory('a', `cmd ${i}`);
    pushHistory('a', `cmd ${HISTORY_LIMIT + 9}`);
    const kept = loadHistory('a');
    expect(kept).toHaveLength(HISTORY_LIMIT);
    expect(kept[0]).toBe('cmd 10');
    expect(kept.at(-1)).toBe(`cmd ${HISTORY_LIMIT + 9}`);
    expect(loadHistory('b')).toEqual([]);
  });

  it('survives a broken stored value', () => {
    localStorage.setItem('aerie:console-history:a', '{not json');
    expect(loadHistory('a')).toEqual([]);
    localStorage.setItem('aerie:console-history:a', JSON.stringify(['ok', 3, null]));
    expect(loadHistory('a')).toEqual(['ok']);
  });

  it('sends on Enter, then ↑ and ↓ walk back through the history to the draft', () => {
    const { input, sent } = renderInput();
    type(input, 'say one');
    key(input, 'Enter');
    type(input, '  say two ');
    key(input, 'Enter');
    expect(sent).toEqual(['say one', 'say two']);
    expect(input).toHaveValue('');

    type(input, 'draft');
    key(input, 'ArrowUp');
    expect(input).toHaveValue('say two');
    key(input, 'ArrowUp');
    expect(input).toHaveValue('say one');
    key(input, 'ArrowUp');
    expect(input).toHaveValue('say one');
    key(input, 'ArrowDown');
    expect(input).toHaveValue('say two');
    key(input, 'ArrowDown');
    expect(input).toHaveValue('draft');
  });

  it('keeps each server’s history apart, across page loads', () => {
    renderInput('server-a');
    const a = screen.getByRole('textbox', { name: 'Console command' });
    type(a, 'list');
    key(a, 'Enter');
    cleanup();

    const { input: b } = renderInput('server-b');
    key(b, 'ArrowUp');
    expect(b).toHaveValue('');
    cleanup();

    const { input: again } = renderInput('server-a');
    key(again, 'ArrowUp');
    expect(again).toHaveValue('list');
  });

  it('keeps the line when the command could not be sent, and ignores an empty one', () => {
    const sent: string[] = [];
    render(<CommandInput serverUuid="a" disabledReason={null} onSend={(c) => (sent.push(c), false)} />);
    const input = screen.getByRole('textbox', { name: 'Console command' });
    key(input, 'Enter');
    type(input, 'stop');
    key(input, 'Enter');
    expect(sent).toEqual(['stop']);
    expect(input).toHaveValue('stop');
    expect(loadHistory('a')).toEqual([]);
  });

  it('is disabled with its reason', () => {
    render(<CommandInput serverUuid="a" disabledReason="The server is offline: start it to send commands." onSend={() => true} />);
    const input = screen.getByRole('textbox', { name: 'Console command' });
    expect(input).toBeDisabled();
    expect(input).toHaveAccessibleDescription('The server is offline: start it to send commands.');
  });
});

import { describe, expect, it } from 'vitest';
import type { FileObject } from '../../contract/files';
import { filterEntries, nextSort, sortEntries } from './sort';

function entry(name: string, opts: Partial<FileObject> = {}): FileObject {
  return {
    name,
    mode: '-rw-r--r--',
    mode_bits: '644',
    size: 0,
    is_file: true,
    is_symlink: false,
    mimetype: 'text/plain',
    created_at: '2024-01-01T00:00:00Z',
    modified_at: '2024-01-01T00:00:00Z',
    ...opts,
  };
}

const dir = (name: string, modified = '2024-01-01T00:00:00Z') =>
  entry(name, { is_file: false, size: 4096, mimetype: 'inode/directory', modified_at: modified });

describe('sortEntries', () => {
  const list = [
    entry('b.txt', { size: 10, modified_at: '2024-03-01T00:00:00Z' }),
    dir('zeta'),
    entry('A.txt', { size: 30, modified_at: '2024-01-01T00:00:00Z' }),
    dir('alpha'),
    entry('file10', { size: 20, modified_at: '2024-02-01T00:00:00Z' }),
    entry('file2', { size: 20, modified_at: '2024-02-01T00:00:00Z' }),
  ];
  const names = (l: FileObject[]) => l.map((e) => e.name);

  it('puts folders first and sorts names naturally, case-insensitively', () => {
    expect(names(sortEntries(list, { key: 'name', order: 'asc' }))).toEqual(['alpha', 'zeta', 'A.txt', 'b.txt', 'file2', 'file10']);
  });

  it('keeps folders first when the order is reversed', () => {
    expect(names(sortEntries(list, { key: 'name', order: 'desc' }))).toEqual(['zeta', 'alpha', 'file10', 'file2', 'b.txt', 'A.txt']);
  });

  it('sorts files by size, ties by name, folders by name', () => {
    expect(names(sortEntries(list, { key: 'size', order: 'desc' }))).toEqual(['alpha', 'zeta', 'A.txt', 'file2', 'file10', 'b.txt']);
  });

  it('sorts by modification time', () => {
    expect(names(sortEntries(list, { key: 'modified', order: 'desc' }))).toEqual(['alpha', 'zeta', 'b.txt', 'file2', 'file10', 'A.txt']);
  });

  it('does not mutate its input', () => {
    const copy = [...list];
    sortEntries(list, { key: 'size', order: 'asc' });
    expect(list).toEqual(copy);
  });

  it('sorts 10,000 entries', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => entry(`file-${(i * 7919) % 10_000}.txt`));
    const sorted = sortEntries(many, { key: 'name', order: 'asc' });
    expect(sorted[0]?.name).toBe('file-0.txt');
    expect(sorted[9_999]?.name).toBe('file-9999.txt');
  });
});

describe('filterEntries', () => {
  it('matches a case-insensitive substring and keeps all for an empty filter', () => {
    const list = [entry('Server.properties'), entry('eula.txt'), dir('plugins')];
    expect(filterEntries(list, 'PROP').map((e) => e.name)).toEqual(['Server.properties']);
    expect(filterEntries(list, '  ')).toBe(list);
  });
});

describe('nextSort', () => {
  it('flips the same key and starts a new key in its natural order', () => {
    expect(nextSort({ key: 'name', order: 'asc' }, 'name')).toEqual({ key: 'name', order: 'desc' });
    expect(nextSort({ key: 'name', order: 'asc' }, 'size')).toEqual({ key: 'size', order: 'asc' });
    expect(nextSort({ key: 'name', order: 'asc' }, 'modified')).toEqual({ key: 'modified', order: 'desc' });
  });
});

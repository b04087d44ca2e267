import { describe, expect, it } from 'vitest';
import {
  baseName,
  breadcrumbs,
  directoryHref,
  editorHref,
  joinPath,
  nameProblem,
  newNameProblem,
  normalizePath,
  parentPath,
  pathFromSplat,
  relativePath,
} from './paths';

describe('paths', () => {
  it('normalises slashes, dots and climbs above the root', () => {
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('a//b/./c/')).toBe('/a/b/c');
    expect(normalizePath('/a/b/../../..')).toBe('/');
    expect(normalizePath('../../etc/passwd')).toBe('/etc/passwd');
  });

  it('joins relative and absolute names', () => {
    expect(joinPath('/a', 'b')).toBe('/a/b');
    expect(joinPath('/a/b', '../c')).toBe('/a/c');
    expect(joinPath('/a', '/x/y')).toBe('/x/y');
    expect(joinPath('/', 'file.txt')).toBe('/file.txt');
  });

  it('takes parents and base names', () => {
    expect(parentPath('/a/b')).toBe('/a');
    expect(parentPath('/a')).toBe('/');
    expect(parentPath('/')).toBe('/');
    expect(baseName('/a/b.txt')).toBe('b.txt');
    expect(baseName('/')).toBe('');
  });

  it('computes relative paths between directories', () => {
    expect(relativePath('/a/b', '/a/b/x')).toBe('x');
    expect(relativePath('/a/b', '/a/c/x')).toBe('../c/x');
    expect(relativePath('/', '/x')).toBe('x');
    expect(relativePath('/a', '/')).toBe('..');
    expect(relativePath('/a', '/a')).toBe('.');
  });

  it('builds breadcrumbs', () => {
    expect(breadcrumbs('/')).toEqual([]);
    expect(breadcrumbs('/a/b')).toEqual([
      { name: 'a', path: '/a' },
      { name: 'b', path: '/a/b' },
    ]);
  });

  it('encodes every segment in URLs, so hostile names round-trip', () => {
    expect(directoryHref('abc', '/')).toBe('/server/abc/files');
    expect(directoryHref('abc', '/my dir/100%#?')).toBe('/server/abc/files/my%20dir/100%25%23%3F');
    expect(editorHref('abc', '/a/b c.txt')).toBe('/server/abc/file/a/b%20c.txt');
    expect(editorHref('abc', '/n.txt', { isNew: true })).toBe('/server/abc/file/n.txt?new=1');
    expect(pathFromSplat(decodeURIComponent('my%20dir/100%25'))).toBe('/my dir/100%');
    expect(pathFromSplat(undefined)).toBe('/');
  });

  it('explains unusable names', () => {
    expect(nameProblem('  ')).toMatch(/Enter a name/);
    expect(nameProblem('a/b')).toMatch(/“\/”/);
    expect(nameProblem('a/b', { allowSlash: true })).toBeNull();
    expect(nameProblem('..', { allowSlash: true })).toMatch(/Enter a name/);
    expect(nameProblem('a\0b')).toMatch(/NUL/);
    expect(nameProblem('ok.txt')).toBeNull();
  });

  it('does not allow “.” or “..” in the name of something new', () => {
    expect(newNameProblem('../x')).toMatch(/not allowed/);
    expect(newNameProblem('a/./b')).toMatch(/not allowed/);
    expect(newNameProblem('..')).toMatch(/not allowed/);
    expect(newNameProblem('a/b')).toBeNull();
    expect(newNameProblem('..x')).toBeNull();
    expect(newNameProblem(' ')).toMatch(/Enter a name/);
  });
});

import { describe, expect, it } from 'vitest';
import { cleanName, isBelow, resolveBeneath, resolveIn } from './paths';
import { DaemonError } from '../types';

describe('lexical path resolution', () => {
  it('roots paths at the volume and applies .. without leaving it', () => {
    expect(resolveBeneath([], '/a/./b//c/')).toEqual(['a', 'b', 'c']);
    expect(resolveBeneath([], '/a/../b.txt')).toEqual(['b.txt']);
    expect(resolveBeneath([], '/etc/passwd')).toEqual(['etc', 'passwd']);
    expect(resolveBeneath([], '')).toEqual([]);
    expect(resolveBeneath([], '..\\..\\x')).toEqual(['..\\..\\x']); // a backslash is a name character
    expect(resolveBeneath([], '%2e%2e%2f')).toEqual(['%2e%2e%2f']); // never decoded again
    expect(resolveIn('/dir', '../c.txt')).toEqual(['c.txt']);
    expect(resolveIn('/dir', '/x')).toEqual(['dir', 'x']);
  });

  it.each(['..', '../x', '/..', 'a/../../b', './../', '/a/b/../../..', 'a\0b'])('refuses %j as not found', (p) => {
    expect(() => resolveBeneath([], p)).toThrow(DaemonError);
    try {
      resolveBeneath([], p);
    } catch (error) {
      expect((error as DaemonError).kind).toBe('not_found');
    }
  });

  it.each(['.aerie-tmp', '/.aerie-tmp/x.part', 'a/.aerie-0123456789abcdef.part', 'a/.aerie-extract-00/m', '.aerie-tmp/..', '/.aerie-'])(
    'refuses the temporary-file path %j as not found',
    (p) => {
      expect(() => resolveBeneath([], p)).toThrow(expect.objectContaining({ kind: 'not_found' }));
    },
  );

  it('refuses a temporary file name as a new name and keeps similar names', () => {
    expect(cleanName('.aerie-tmp')).toBeNull();
    expect(cleanName('.aerie-x.part')).toBeNull();
    expect(cleanName('aerie-tmp')).toBe('aerie-tmp');
    expect(cleanName('.aerie')).toBe('.aerie');
    expect(resolveIn('/', '.aerietmp/x')).toEqual(['.aerietmp', 'x']);
  });

  it('knows what lies below what', () => {
    expect(isBelow(['a'], ['a', 'b'])).toBe(true);
    expect(isBelow(['a'], ['a'])).toBe(false);
    expect(isBelow(['a'], ['ab'])).toBe(false);
  });
});

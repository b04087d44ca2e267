import { describe, expect, it } from 'vitest';
import { gravatarUrl, hasAdditionalMetadata, rewriteProperties } from './activity-view';

describe('activity properties', () => {
  it('renames a lone array count to count', () => {
    expect(rewriteProperties({ files: ['a', 'b', 'c'] }, true)).toEqual({ files: ['a', 'b', 'c'], count: 3 });
  });

  it('keeps both _count keys when two arrays are present', () => {
    expect(rewriteProperties({ old: ['a'], new: [] }, true)).toEqual({ old: ['a'], old_count: 1, new: [], new_count: 0 });
  });

  it('counts the entries a capped list left out', () => {
    expect(rewriteProperties({ files: ['a', 'b'], files_omitted: 998 }, true)).toEqual({ files: ['a', 'b'], files_omitted: 998, count: 1000 });
  });

  it('normalises directory to a leading and trailing slash', () => {
    expect(rewriteProperties({ directory: '' }, true)).toEqual({ directory: '/' });
    expect(rewriteProperties({ directory: '//a//b/' }, true)).toEqual({ directory: '/a/b/' });
  });

  it('hides properties.ip unless the viewer is the actor', () => {
    expect(rewriteProperties({ ip: '10.0.0.1' }, false)).toEqual({ ip: '[hidden]' });
    expect(rewriteProperties({ ip: '10.0.0.1' }, true)).toEqual({ ip: '10.0.0.1' });
  });

  it('keeps a stored __proto__ key as plain data', () => {
    const out = rewriteProperties(JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>, true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("has_additional_metadata (true when a property is neither a placeholder of the event's sentence nor ip, useragent or using_sftp)", () => {
  it.each([
    ['server:console.command', ['command'], false],
    ['server:backup.start', ['name', 'locked'], true],
    ['server:subuser.create', ['email', 'permissions'], true],
    ['auth:success', ['ip', 'useragent'], false],
    ['auth:fail', ['ip', 'useragent', 'username'], true],
    ['server:file.delete', ['directory', 'files'], true],
    ['server:power.start', [], false],
  ])('%s with %j → %s', (event, keys, expected) => {
    expect(hasAdditionalMetadata(event, keys)).toBe(expected);
  });
});

describe('gravatarUrl', () => {
  it('hashes the trimmed, lower-cased address', () => {
    expect(gravatarUrl(' MyEmailAddress@example.com ')).toBe('https://www.gravatar.com/avatar/0bc83cb571cd1c50ba6f3e8a78ef1346');
  });
});

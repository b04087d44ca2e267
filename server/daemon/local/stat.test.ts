import { describe, expect, it } from 'vitest';
import { copyNames } from './file-rules';
import { mimeFor, modeString } from './stat';

describe('stat helpers', () => {
  it('prints modes as Go does', () => {
    expect(modeString({ mode: 0o100644 })).toBe('-rw-r--r--');
    expect(modeString({ mode: 0o040755 })).toBe('drwxr-xr-x');
    expect(modeString({ mode: 0o120777 })).toBe('Lrwxrwxrwx');
    expect(modeString({ mode: 0o010600 })).toBe('prw-------');
    expect(modeString({ mode: 0o104755 })).toBe('urwxr-xr-x');
    expect(modeString({ mode: 0o020666 })).toBe('Dcrw-rw-rw-');
  });

  it('derives mimetypes from names', () => {
    expect(mimeFor('server.properties')).toBe('text/plain; charset=utf-8');
    expect(mimeFor('ops.json')).toBe('application/json');
    expect(mimeFor('archive.tar.gz')).toBe('application/tar+gzip');
    expect(mimeFor('x.zip')).toBe('application/zip');
    expect(mimeFor('level.dat')).toBe('application/octet-stream');
    expect(mimeFor('noext')).toBe('application/octet-stream');
  });

  it('names copies as Wings does', () => {
    const names = (n: string) => [...copyNames(n)].slice(0, 3);
    expect(names('server.properties')).toEqual(['server copy.properties', 'server copy 1.properties', 'server copy 2.properties']);
    expect(names('world.tar.gz')[0]).toBe('world copy.tar.gz');
    expect(names('README')[0]).toBe('README copy');
    expect(names('.env')[0]).toBe(' copy.env');
  });
});

import { describe, expect, it } from 'vitest';
import { isArchive, isEditable } from './file-kinds';
import { languageIdFor } from './languages';
import { moveProblem, renameProblem } from './move-rules';

const f = (name: string, mimetype: string, is_file = true) => ({ name, mimetype, is_file });

describe('file kinds', () => {
  it('recognises archives by mimetype or by name', () => {
    expect(isArchive(f('archive-2024.tar.gz', 'application/tar+gzip'))).toBe(true);
    expect(isArchive(f('x.zip', 'application/octet-stream'))).toBe(true);
    expect(isArchive(f('x.bin', 'application/gzip'))).toBe(true);
    expect(isArchive(f('plugins', 'inode/directory', false))).toBe(false);
    expect(isArchive(f('server.properties', 'text/plain; charset=utf-8'))).toBe(false);
  });

  it('opens text in the editor but not archives, jars, images or folders', () => {
    expect(isEditable(f('server.properties', 'text/plain; charset=utf-8'))).toBe(true);
    expect(isEditable(f('Dockerfile', 'application/octet-stream'))).toBe(true);
    expect(isEditable(f('logo.svg', 'image/svg+xml'))).toBe(true);
    expect(isEditable(f('server.jar', 'application/java-archive'))).toBe(false);
    expect(isEditable(f('icon.png', 'image/png'))).toBe(false);
    expect(isEditable(f('r.0.0.mca', 'application/octet-stream'))).toBe(false);
    expect(isEditable(f('w.zip', 'application/zip'))).toBe(false);
    expect(isEditable(f('world', 'inode/directory', false))).toBe(false);
  });
});

describe('languageIdFor', () => {
  it('picks a language by extension', () => {
    expect(languageIdFor('config.YML')).toBe('yaml');
    expect(languageIdFor('server.properties')).toBe('properties');
    expect(languageIdFor('.env')).toBe('properties');
    expect(languageIdFor('start.sh')).toBe('shell');
    expect(languageIdFor('pack.mcmeta')).toBe('json');
    expect(languageIdFor('index.tsx')).toBe('tsx');
    expect(languageIdFor('README')).toBeNull();
    expect(languageIdFor('data.unknown')).toBeNull();
  });
});

describe('move rules', () => {
  it('refuses renaming onto itself, to the root or into itself', () => {
    expect(renameProblem('/a', 'x', 'x', false)).toMatch(/current name/);
    expect(renameProblem('/a', 'x', '/', false)).toMatch(/root/);
    expect(renameProblem('/a', 'd', 'd/sub', true)).toMatch(/into itself/);
    expect(renameProblem('/a', 'x', '../x', false)).toBeNull();
  });

  it('refuses moving into the same folder or a folder into itself', () => {
    expect(moveProblem('/a', [], '.')).toMatch(/already/);
    expect(moveProblem('/a', [], '/a')).toMatch(/already/);
    expect(moveProblem('/a', ['d'], 'd/inner')).toMatch(/“d”/);
    expect(moveProblem('/a', ['d'], '/b')).toBeNull();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales';

/*
 * Every catalogue is complete in every language: the same keys as English, no key left unused by
 * the code, and the same placeholders and tags in each translation.
 */

const SRC = path.resolve(__dirname, '../..');

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : [full];
  });
}

const files = walk(SRC);
const catalogueDirs = files.filter((f) => f.endsWith(`${path.sep}locales${path.sep}en.json`)).map((f) => path.dirname(f));
const read = (dir: string, locale: string) => JSON.parse(fs.readFileSync(path.join(dir, `${locale}.json`), 'utf8')) as Record<string, string>;
const code = files
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
  .map((f) => fs.readFileSync(f, 'utf8'))
  .join('\n');

/** The names a message's placeholders use, and its numbered tags (`<0>…</0>`). */
function shape(message: string): string[] {
  const names = new Set<string>();
  const visit = (compiled: CompiledMessage) => {
    for (const token of compiled) {
      if (typeof token === 'string') continue;
      names.add(`{${token[0]}}`);
      const choices = token[2];
      if (choices && typeof choices === 'object') for (const choice of Object.values(choices)) if (Array.isArray(choice)) visit(choice);
    }
  };
  visit(compileMessageOrThrow(message));
  for (const tag of message.matchAll(/<(\d+)\/?>/g)) names.add(`<${tag[1]}>`);
  return [...names].sort();
}

describe('message catalogues', () => {
  it('exist, one folder per feature', () => {
    expect(catalogueDirs.length).toBeGreaterThan(0);
  });

  it('use each key in one catalogue only, and the code uses every key', () => {
    const seen = new Map<string, string>();
    const unused: string[] = [];
    for (const dir of catalogueDirs) {
      for (const key of Object.keys(read(dir, 'en'))) {
        expect(seen.get(key), `${key} is in ${seen.get(key)} and ${dir}`).toBeUndefined();
        seen.set(key, dir);
        if (!code.includes(`'${key}'`) && !code.includes(`"${key}"`)) unused.push(`${path.relative(SRC, dir)}: ${key}`);
      }
    }
    expect(unused, 'keys no code uses').toEqual([]);
  });

  for (const dir of catalogueDirs) {
    const name = path.relative(SRC, dir);
    const english = read(dir, 'en');
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      it(`${name}: ${locale} has every key of English, no other, and the same placeholders`, () => {
        const translated = read(dir, locale);
        expect(Object.keys(translated).sort(), 'keys').toEqual(Object.keys(english).sort());
        const differ = Object.entries(english).filter(([key, message]) => {
          const translation = translated[key];
          return translation !== undefined && shape(translation).join() !== shape(message).join();
        });
        expect(
          differ.map(([key]) => key),
          'messages whose placeholders or tags differ from English',
        ).toEqual([]);
        const empty = Object.keys(translated).filter((key) => !translated[key]?.trim());
        expect(empty, 'empty translations').toEqual([]);
      });
    }
  }
});

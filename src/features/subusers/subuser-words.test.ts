// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from '../../lib/i18n/runtime';
import { t } from './messages';

afterEach(() => changeLocale('en'));

describe('the subusers area in another language', () => {
  it('counts permissions with the language’s plural forms, in English too', async () => {
    expect([1, 2].map((count) => t('subusers.row.permissions', { count }))).toEqual(['1 permission', '2 permissions']);
    await changeLocale('pl');
    expect([1, 2, 5, 12, 22].map((count) => t('subusers.row.permissions', { count }))).toEqual([
      '1 uprawnienie',
      '2 uprawnienia',
      '5 uprawnień',
      '12 uprawnień',
      '22 uprawnienia',
    ]);
    expect(t('subusers.editor.presetChosen', { preset: 'Moderator', count: 6 })).toBe(
      'Moderator: wybrano 6 uprawnień. W razie potrzeby dostosuj je poniżej.',
    );
  });
});

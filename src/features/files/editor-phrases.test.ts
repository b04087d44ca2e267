// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { changeLocale } from '../../lib/i18n/runtime';
import { editorPhrases } from './editor-phrases';

afterEach(() => changeLocale('en'));

const say = (phrase: string) => EditorState.create({ extensions: editorPhrases() }).phrase(phrase);

describe("CodeMirror's own words", () => {
  it('are English in English and follow the language shown', async () => {
    expect(say('Find')).toBe('Find');
    expect(say('replace all')).toBe('replace all');
    await changeLocale('de');
    expect(say('Find')).toBe('Suchen');
    expect(say('replace all')).toBe('alle ersetzen');
    expect(EditorState.create({ extensions: editorPhrases() }).phrase('replaced $ matches', 3)).toBe('3 Treffer ersetzt');
  });
});

import { EditorState, type Extension } from '@codemirror/state';
import { t } from './messages';

/** CodeMirror's own words (its search panel, go-to-line, folding), each by the phrase CodeMirror asks for. */
const PHRASES = {
  Find: 'files.editor.phrase.find',
  Replace: 'files.editor.phrase.replace',
  next: 'files.editor.phrase.next',
  previous: 'files.editor.phrase.previous',
  all: 'files.editor.phrase.all',
  'match case': 'files.editor.phrase.matchCase',
  regexp: 'files.editor.phrase.regexp',
  'by word': 'files.editor.phrase.byWord',
  replace: 'files.editor.phrase.replaceOne',
  'replace all': 'files.editor.phrase.replaceAll',
  close: 'files.editor.phrase.close',
  'current match': 'files.editor.phrase.currentMatch',
  'replaced $ matches': 'files.editor.phrase.replacedMatches',
  'replaced match on line $': 'files.editor.phrase.replacedOnLine',
  'on line': 'files.editor.phrase.onLine',
  'Go to line': 'files.editor.phrase.goToLine',
  go: 'files.editor.phrase.go',
  'folded code': 'files.editor.phrase.foldedCode',
  unfold: 'files.editor.phrase.unfold',
  'Fold line': 'files.editor.phrase.foldLine',
  'Unfold line': 'files.editor.phrase.unfoldLine',
  'Folded lines': 'files.editor.phrase.foldedLines',
  'Unfolded lines': 'files.editor.phrase.unfoldedLines',
  to: 'files.editor.phrase.to',
  'Selection deleted': 'files.editor.phrase.selectionDeleted',
  'Control character': 'files.editor.phrase.controlCharacter',
} as const;

/** CodeMirror's words in the language shown now (the editor reconfigures it when the language changes). */
export function editorPhrases(): Extension {
  return EditorState.phrases.of(Object.fromEntries(Object.entries(PHRASES).map(([phrase, key]) => [phrase, t(key)])));
}

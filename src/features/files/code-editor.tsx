import { useEffect, useRef } from 'react';
import { Compartment, EditorState, type Extension, type Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { oneDark } from '@codemirror/theme-one-dark';
import { currentTheme, useTheme, type Theme } from '../../lib/theme';
import { useLocale } from '../../lib/i18n/catalog';
import { editorPhrases } from './editor-phrases';
import { editorSetup } from './editor-setup';
import { languageIdFor, loadLanguage } from './languages';

/*
 * CodeMirror 6, loaded only by the editor page (this module is a dynamic import). The document
 * lives in CodeMirror, not React state: a 4 MiB file must not re-render React on every keystroke.
 */

export interface EditorHandle {
  /** The current text, and the document it came from (to mark exactly that as saved). */
  snapshot: () => { text: string; doc: Text };
  markSaved: (doc: Text) => void;
  focus: () => void;
}

interface Props {
  initialDoc: string;
  fileName: string;
  readOnly: boolean;
  label: string;
  onDirtyChange: (dirty: boolean) => void;
  onReady: (handle: EditorHandle | null) => void;
}

// The editor grows with its text and the page scrolls (CodeMirror still renders only what is in view).
const aerieLayout = EditorView.theme({
  '&': { fontSize: '13px', borderRadius: '8px' },
  '.cm-content, .cm-gutter': { minHeight: 'max(20rem, calc(100dvh - 19rem))' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
  '.cm-gutters': { borderRadius: '8px 0 0 8px' },
  '&.cm-focused': { outline: 'none' },
});

// The page's own greys (zinc) around One Dark's syntax colours, or CodeMirror's default highlight
// style on white; earlier extensions win, so ours come before One Dark's.
const EDITOR_THEMES: Record<Theme, Extension> = {
  dark: [
    EditorView.theme(
      {
        '&': { backgroundColor: '#09090b' },
        '.cm-gutters': { backgroundColor: '#18181b', borderRight: '1px solid #27272a', color: '#9f9fa9' },
        '.cm-activeLineGutter': { backgroundColor: '#27272a' },
        '.cm-activeLine': { backgroundColor: '#18181b99' },
      },
      { dark: true },
    ),
    oneDark,
  ],
  light: [
    EditorView.theme({
      '&': { backgroundColor: '#ffffff', color: '#18181b' },
      '.cm-gutters': { backgroundColor: '#f4f4f5', borderRight: '1px solid #e4e4e7', color: '#52525c' },
      '.cm-activeLineGutter': { backgroundColor: '#e4e4e7' },
      '.cm-activeLine': { backgroundColor: '#f4f4f599' },
    }),
    syntaxHighlighting(defaultHighlightStyle),
  ],
};

export function CodeEditor({ initialDoc, fileName, readOnly, label, onDirtyChange, onReady }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const themed = useRef<{ view: EditorView; compartment: Compartment; words: Compartment } | null>(null);
  const theme = useTheme();
  const locale = useLocale();
  const callbacks = useRef({ onDirtyChange, onReady });
  useEffect(() => {
    callbacks.current = { onDirtyChange, onReady };
  });

  // Created once per mount; the page remounts the editor for another file.
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    let saved = EditorState.create({ doc: initialDoc }).doc;
    let dirty = false;
    const language = new Compartment();
    const colours = new Compartment();
    const words = new Compartment();
    const setDirty = (next: boolean) => {
      if (next !== dirty) {
        dirty = next;
        callbacks.current.onDirtyChange(next);
      }
    };
    const view = new EditorView({
      parent,
      state: EditorState.create({
        doc: saved,
        extensions: [
          editorSetup,
          aerieLayout,
          colours.of(EDITOR_THEMES[currentTheme()]),
          words.of(editorPhrases()),
          language.of([]),
          EditorState.readOnly.of(readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((u) => {
            // Length first: most edits change it, and comparing lengths is O(1).
            if (u.docChanged) setDirty(u.state.doc.length !== saved.length || !u.state.doc.eq(saved));
          }),
        ],
      }),
    });
    themed.current = { view, compartment: colours, words };
    let cancelled = false;
    const id = languageIdFor(fileName);
    if (id) {
      loadLanguage(id).then(
        (ext) => !cancelled && view.dispatch({ effects: language.reconfigure(ext) }),
        () => undefined, // No highlighting is better than no editor.
      );
    }
    callbacks.current.onReady({
      snapshot: () => ({ text: view.state.doc.toString(), doc: view.state.doc }),
      markSaved: (doc) => {
        saved = doc;
        setDirty(view.state.doc.length !== saved.length || !view.state.doc.eq(saved));
      },
      focus: () => view.focus(),
    });
    return () => {
      cancelled = true;
      callbacks.current.onReady(null);
      themed.current = null;
      view.destroy();
    };
  }, [initialDoc, fileName, readOnly, label]);

  // The theme changes live, the document and its undo history kept.
  useEffect(() => {
    themed.current?.view.dispatch({ effects: themed.current.compartment.reconfigure(EDITOR_THEMES[theme]) });
  }, [theme]);
  // So do CodeMirror's own words (its search panel) with the language.
  useEffect(() => {
    themed.current?.view.dispatch({ effects: themed.current.words.reconfigure(editorPhrases()) });
  }, [locale]);

  return <div ref={host} />;
}

import { useEffect, useRef } from 'react';
import { Compartment, EditorState, type Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { oneDark } from '@codemirror/theme-one-dark';
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

const aerieTheme = EditorView.theme(
  {
    // The editor grows with its text and the page scrolls (CodeMirror still renders only what is in view).
    '&': { backgroundColor: '#09090b', fontSize: '13px', borderRadius: '8px' },
    '.cm-content, .cm-gutter': { minHeight: 'max(20rem, calc(100dvh - 19rem))' },
    '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
    '.cm-gutters': { backgroundColor: '#18181b', borderRight: '1px solid #27272a', color: '#9f9fa9', borderRadius: '8px 0 0 8px' },
    '.cm-activeLineGutter': { backgroundColor: '#27272a' },
    '.cm-activeLine': { backgroundColor: '#18181b99' },
    '&.cm-focused': { outline: 'none' },
  },
  { dark: true },
);

export function CodeEditor({ initialDoc, fileName, readOnly, label, onDirtyChange, onReady }: Props) {
  const host = useRef<HTMLDivElement>(null);
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
          // Earlier extensions win: our colours over One Dark's, its syntax colours kept.
          aerieTheme,
          oneDark,
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
      view.destroy();
    };
  }, [initialDoc, fileName, readOnly, label]);

  return <div ref={host} />;
}

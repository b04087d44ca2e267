import type { FileObject } from '../../contract/files';

/** What a row or the selection bar can ask the page to do; the page owns dialogs and requests. */
export interface FileActions {
  open: (entry: FileObject) => void;
  rename: (name: string) => void;
  move: (names: string[]) => void;
  copy: (name: string) => void;
  download: (name: string) => void;
  compress: (names: string[]) => void;
  decompress: (name: string) => void;
  remove: (names: string[]) => void;
}

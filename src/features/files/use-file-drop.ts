import { useCallback, useRef, useState, type DragEvent } from 'react';

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes('Files');
}

/**
 * Drag-and-drop of files onto the page. A counter (not a flag) tracks enter/leave, because both
 * fire for every child the pointer crosses, which would make the overlay flicker. Dropped folders
 * are refused by name: a browser cannot send them as one file.
 */
export function useFileDrop(enabled: boolean, onFiles: (files: File[], rejected: string[]) => void) {
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);

  const onDragEnter = useCallback(
    (e: DragEvent) => {
      if (!enabled || !hasFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    [enabled],
  );
  const onDragOver = useCallback(
    (e: DragEvent) => {
      if (!enabled || !hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    [enabled],
  );
  const onDragLeave = useCallback(
    (e: DragEvent) => {
      if (!enabled || !hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    [enabled],
  );
  const onDrop = useCallback(
    (e: DragEvent) => {
      if (!enabled || !hasFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files: File[] = [];
      const rejected: string[] = [];
      const items = Array.from(e.dataTransfer.items);
      if (items.length > 0) {
        for (const item of items) {
          if (item.kind !== 'file') continue;
          const entry = item.webkitGetAsEntry?.();
          const file = item.getAsFile();
          if (entry?.isDirectory) rejected.push(entry.name);
          else if (file) files.push(file);
        }
      } else {
        files.push(...Array.from(e.dataTransfer.files));
      }
      onFiles(files, rejected);
    },
    [enabled, onFiles],
  );

  return { dragging, handlers: { onDragEnter, onDragOver, onDragLeave, onDrop } };
}

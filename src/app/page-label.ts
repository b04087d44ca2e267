import { useCallback } from 'react';
import { useT, type AppMessage } from './messages';

/** A route table page's name (server or admin page) in the language shown: `pageLabel(page)`. */
export function usePageLabel(): (page: { label: AppMessage }) => string {
  const t = useT();
  return useCallback((page) => t(page.label), [t]);
}

import { useCallback, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { TransNoContext } from '@lingui/react/server';
import { i18n } from './runtime';

/** What a message's placeholders take: `{count, plural, …}`, `{name}`, numbers and dates. */
export type MessageValues = Record<string, unknown>;

export type Translate<K extends string> = (key: K, values?: MessageValues) => string;

interface TProps<K extends string> {
  k: K;
  values?: MessageValues;
  /** Elements for the message's tags: `Delete <0>{name}</0>?` with `{ 0: <strong /> }`. */
  components?: Record<string, ReactElement>;
}

/*
 * A feature's messages: `const { useT, T } = defineCatalogue(en)` with the feature's English
 * catalogue (`locales/en.json`, compiled by the build's catalogue plugin). Keys are typed by that
 * catalogue; English is looked up there, other languages in the loaded bundle, and a component
 * that uses them re-renders when the language changes.
 */
export function defineCatalogue<K extends string>(english: Record<K, string>) {
  // The build compiles catalogues into Lingui's message form; the type still says string.
  const fallback = (key: K) => ({ message: english[key] });

  /** `t(key, values)`, re-rendering the component when the language changes. */
  function useT(): Translate<K> {
    const locale = useLocale();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function for each language re-renders its users
    return useCallback((key: K, values?: MessageValues) => i18n._(key, values, fallback(key)), [locale]);
  }

  /** A message with elements inside (links, emphasis). */
  function T({ k, values, components }: TProps<K>): ReactNode {
    useLocale();
    return <TransNoContext id={k} message={english[k]} values={values} components={components} lingui={{ i18n }} />;
  }

  /** Outside components (a toast from a callback): the language of the moment. */
  function t(key: K, values?: MessageValues): string {
    return i18n._(key, values, fallback(key));
  }

  return { useT, T, t };
}

function subscribe(onChange: () => void): () => void {
  return i18n.on('change', onChange);
}

/** The language being shown, for `Intl` formatting; the component re-renders when it changes. */
export function useLocale(): string {
  return useSyncExternalStore(subscribe, () => i18n.locale);
}

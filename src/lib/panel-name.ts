import { useEffect } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_PANEL_NAME, panelEndpoints } from '../contract/admin-settings';
import { call } from './http';

/*
 * The panel's name (an admin sets it; `GET /api/panel`, Aerie's). A real Pterodactyl answers that
 * with a 404, and then the panel is simply "Aerie". Page titles end with it: `pageTitle('Servers')`.
 */

export const panelQueries = {
  all: () => ['panel'] as const,
  info: () =>
    queryOptions({
      queryKey: [...panelQueries.all(), 'info'] as const,
      queryFn: async ({ signal }) => (await call(panelEndpoints.info, { signal })).attributes.name,
      staleTime: 5 * 60_000,
      retry: false,
      meta: { quiet: true },
    }),
};

let current = DEFAULT_PANEL_NAME;

/** `Servers · <panel name>`: the parts, most specific first, then the panel's name. */
export function pageTitle(...parts: string[]): string {
  return [...parts, current].join(' · ');
}

/**
 * Sets the page's title while it is shown: `<DocumentTitle>{pageTitle(…)}</DocumentTitle>`. (React
 * 19 would hoist a `<title>` element; Preact, which renders the SPA, does not.)
 */
export function DocumentTitle({ children }: { children: string }): null {
  useEffect(() => {
    document.title = children;
  }, [children]);
  return null;
}

/** The panel's name ("Aerie" until known, or when the panel does not say); keeps the page title's ending current. */
export function usePanelName(): string {
  const { data } = useQuery(panelQueries.info());
  const name = data ?? DEFAULT_PANEL_NAME;
  useEffect(() => {
    if (name === current) return;
    const before = current;
    current = name;
    if (document.title.endsWith(before)) document.title = `${document.title.slice(0, -before.length)}${name}`;
  }, [name]);
  return name;
}

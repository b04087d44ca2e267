/** The sign-in URL that returns to `intended` afterwards (only same-origin paths are kept). */
export function signInPath(intended?: string): string {
  const safe = safeIntended(intended);
  return safe && safe !== '/' ? `/auth/login?redirect=${encodeURIComponent(safe)}` : '/auth/login';
}

/** Accepts only local absolute paths, so `?redirect=` cannot send users to another site. */
export function safeIntended(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}

export const serverPath = (id: string, sub = '') => `/server/${id}${sub ? `/${sub}` : ''}`;

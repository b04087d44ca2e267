import { expect, type Page } from '@playwright/test';

/*
 * Hostile strings for the stored-XSS specs (markup, script and event-handler payloads, and very long strings), and a
 * guard that notices when one of them became markup or script instead of text.
 */

/** Strings for free-text fields (server name and description, usernames). Each is ≤ 185 chars. */
export const TEXT_PAYLOADS: readonly string[] = [
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'><script>alert(1)</script>",
  'javascript:alert(1)',
  '</textarea><script>alert(1)</script>',
  "{{constructor.constructor('alert(1)')()}}",
  '${alert(1)} {{7*7}} {{count}} :count %s%n%x',
  '<a href="javascript:alert(1)">x</a>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '[x](javascript:alert(1)) </style><style>*{display:none}</style>',
  '&lt;img src=x onerror=alert(1)&gt; evil\u202Etxt.exe',
];

/**
 * Names for files and folders: the same attacks without `/`, plus names that are risky as object
 * keys or for display (`__proto__`, a right-to-left override).
 */
export const NAME_PAYLOADS: readonly string[] = [
  '<img src=x onerror=alert(1)>.txt',
  '"><svg onload=alert(1)>',
  "{{constructor.constructor('alert(1)')()}}",
  '${alert(1)} {{7*7}} :count %s%n%x.txt',
  "'><a href=javascript:alert(1)>x",
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe srcdoc="<img src=x onerror=alert(1)>">',
  '&lt;img src=x onerror=alert(1)&gt;',
  'evil\u202Etxt.exe',
  '__proto__',
  'a\'b"c',
];

/** A string longer than any field shows on one line: 10,000 characters. */
export const LONG_PAYLOAD = '<img src=x onerror=alert(1)>'.repeat(400).slice(0, 10_000);

/** Elements or attributes that only exist when a payload was parsed as HTML. */
const INJECTED = [
  'img[src="x"]',
  'svg[onload]',
  '[onerror]',
  '[onload]',
  'iframe',
  'math',
  'mglyph',
  'script:not([src])',
  'a[href^="javascript:" i]',
].join(', ');

export interface Guard {
  /** Messages of JS dialogs (alert/confirm/prompt) the page opened. */
  dialogs: string[];
  /** Console reports of Content-Security-Policy violations (an injected handler the CSP blocked). */
  cspViolations: string[];
}

/**
 * Watches a page for the two signs of an executed or blocked payload: a JS dialog (dismissed, so
 * the page goes on) and a CSP violation report (the CSP has no 'unsafe-inline', so an injected
 * `onerror=` never runs, but Chromium reports the refusal on the console).
 */
export function watch(page: Page): Guard {
  const guard: Guard = { dialogs: [], cspViolations: [] };
  page.on('dialog', (dialog) => {
    guard.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) guard.cspViolations.push(message.text());
  });
  return guard;
}

/** No dialog, no CSP refusal, and no element a payload would have made. */
export async function expectNoInjection(page: Page, guard: Guard): Promise<void> {
  await expect(page.locator(INJECTED), 'an element made from a payload').toHaveCount(0);
  expect(guard.dialogs, 'a JS dialog fired').toEqual([]);
  expect(guard.cspViolations, 'the CSP blocked an injected script').toEqual([]);
}

/** The X-XSRF-TOKEN header the SPA sends, from the cookie `signIn` left in the page's context. */
export async function xsrfHeaders(page: Page): Promise<Record<string, string>> {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), Accept: 'application/json' };
}

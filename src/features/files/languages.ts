import type { Extension } from '@codemirror/state';

/*
 * Syntax highlighting by file name. Each language is its own dynamic import, so opening a YAML
 * file loads the YAML grammar and nothing else.
 */

export type LanguageId =
  | 'json'
  | 'yaml'
  | 'javascript'
  | 'typescript'
  | 'jsx'
  | 'tsx'
  | 'xml'
  | 'markdown'
  | 'css'
  | 'html'
  | 'python'
  | 'properties'
  | 'toml'
  | 'shell'
  | 'lua';

const BY_EXTENSION: Record<string, LanguageId> = {
  json: 'json',
  json5: 'json',
  mcmeta: 'json',
  jsonc: 'json',
  yml: 'yaml',
  yaml: 'yaml',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  xml: 'xml',
  svg: 'xml',
  pom: 'xml',
  md: 'markdown',
  markdown: 'markdown',
  css: 'css',
  html: 'html',
  htm: 'html',
  py: 'python',
  properties: 'properties',
  ini: 'properties',
  cfg: 'properties',
  conf: 'properties',
  env: 'properties',
  lang: 'properties',
  toml: 'toml',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  lua: 'lua',
};

export const LANGUAGE_LABELS: Record<LanguageId, string> = {
  json: 'JSON',
  yaml: 'YAML',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  jsx: 'JSX',
  tsx: 'TSX',
  xml: 'XML',
  markdown: 'Markdown',
  css: 'CSS',
  html: 'HTML',
  python: 'Python',
  properties: 'Properties',
  toml: 'TOML',
  shell: 'Shell',
  lua: 'Lua',
};

/** The language of a file by its name (`.env` counts as an extension), or null for plain text. */
export function languageIdFor(fileName: string): LanguageId | null {
  const name = fileName.toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot < 0) return null;
  return BY_EXTENSION[name.slice(dot + 1)] ?? null;
}

async function legacy(load: () => Promise<Parameters<typeof import('@codemirror/language').StreamLanguage.define>[0]>): Promise<Extension> {
  const [{ StreamLanguage }, parser] = await Promise.all([import('@codemirror/language'), load()]);
  return StreamLanguage.define(parser);
}

export async function loadLanguage(id: LanguageId): Promise<Extension> {
  switch (id) {
    case 'json':
      return (await import('@codemirror/lang-json')).json();
    case 'yaml':
      return (await import('@codemirror/lang-yaml')).yaml();
    case 'javascript':
    case 'typescript':
    case 'jsx':
    case 'tsx':
      return (await import('@codemirror/lang-javascript')).javascript({
        typescript: id === 'typescript' || id === 'tsx',
        jsx: id === 'jsx' || id === 'tsx',
      });
    case 'xml':
      return (await import('@codemirror/lang-xml')).xml();
    case 'markdown':
      return (await import('@codemirror/lang-markdown')).markdown();
    case 'css':
      return (await import('@codemirror/lang-css')).css();
    case 'html':
      return (await import('@codemirror/lang-html')).html();
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'properties':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/properties')).properties);
    case 'toml':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/toml')).toml);
    case 'shell':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/shell')).shell);
    case 'lua':
      return legacy(async () => (await import('@codemirror/legacy-modes/mode/lua')).lua);
  }
}

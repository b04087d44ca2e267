/*
 * The reference panel's egg variable rules: a pipe-separated Laravel rule string
 * (`required|integer|between:1,100`), checked against a value as Laravel does, with its messages
 * naming the variable. The server refuses with it; the SPA reads it to choose a switch or a select.
 * Rules this list does not know (`sometimes`, `alpha_num`, …) are ignored, as a panel that cannot
 * check them should not refuse a value for them.
 */

export interface VariableRule {
  name: string;
  args: string[];
}

/** Past this a value is refused before any rule runs: egg regexes must not get unbounded input. */
export const MAX_VARIABLE_VALUE_LENGTH = 4096;

/**
 * Splits a rule string. Laravel splits on every `|`, so a regex holding one must be written as an
 * array there; a rule string is all an egg has, so here `regex:` runs to its closing delimiter
 * (the first unescaped one followed by flags and `|` or the end) and may hold `|`.
 */
export function parseRules(rules: string): VariableRule[] {
  const out: VariableRule[] = [];
  let i = 0;
  while (i < rules.length) {
    let end = rules.indexOf('|', i);
    const head = rules.slice(i, end === -1 ? undefined : end);
    if (/^(not_)?regex:/.test(head)) end = regexEnd(rules, rules.indexOf(':', i) + 1) ?? end;
    const part = rules.slice(i, end === -1 ? undefined : end).trim();
    i = end === -1 ? rules.length : end + 1;
    if (!part) continue;
    const colon = part.indexOf(':');
    if (colon === -1) out.push({ name: part.toLowerCase(), args: [] });
    else {
      const name = part.slice(0, colon).toLowerCase();
      const arg = part.slice(colon + 1);
      out.push({ name, args: name.endsWith('regex') ? [arg] : arg.split(',') });
    }
  }
  return out;
}

/** Where the `|` after a `regex:` pattern starting at `start` is, -1 at the end, undefined if not found. */
function regexEnd(rules: string, start: number): number | undefined {
  const delimiter = rules[start];
  if (delimiter === undefined) return undefined;
  for (let i = start + 1; i < rules.length; i++) {
    if (rules[i] === '\\') i++;
    else if (rules[i] === delimiter) {
      const rest = /^[a-zA-Z]*(\||$)/.exec(rules.slice(i + 1));
      if (rest) return rest[1] === '|' ? i + 1 + rest[0].length - 1 : -1;
    }
  }
  return undefined;
}

/** A PCRE-style `/pattern/flags` as a JS RegExp (flags JS lacks are dropped); undefined if it cannot compile. */
export function toRegExp(literal: string): RegExp | undefined {
  const delimiter = literal[0];
  const close = delimiter ? literal.lastIndexOf(delimiter) : -1;
  if (!delimiter || close <= 0) return undefined;
  const flags = [...new Set(literal.slice(close + 1).replace(/[^imsu]/g, ''))].join('');
  try {
    return new RegExp(literal.slice(1, close), flags);
  } catch {
    return undefined;
  }
}

/** How a `regex:` rule is run; the server runs egg patterns with a time limit. */
export type RegexTester = (pattern: RegExp, value: string) => boolean;

const INTEGER = /^[+-]?(0|[1-9]\d*)$/;
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ALPHA_DASH = /^[\p{L}\p{M}\p{N}_-]+$/u;
const URL_SHAPE = /^[a-z][a-z\d+.-]*:\/\/[^\s/?#]+\S*$/i;
const BOOLEAN = ['0', '1'];

/**
 * The first rule `value` breaks, as a sentence that starts with the variable's name as the egg
 * writes it ("Max players must be an integer.", where Laravel would say "The Max players…"), or
 * undefined when it passes. As the reference panel's middleware, the value is trimmed and an empty one is null:
 * `nullable` lets null through, `required` refuses it, any other rule fails on it.
 */
export function checkVariableValue(value: string, rules: string, name: string, testRegex: RegexTester = (p, v) => p.test(v)): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length > MAX_VARIABLE_VALUE_LENGTH) return `${name} may not be greater than ${MAX_VARIABLE_VALUE_LENGTH} characters.`;
  // The value becomes an environment variable of the server's process, which cannot hold a NUL.
  if (trimmed.includes('\0')) return `${name} may not contain NUL characters.`;
  const parsed = parseRules(rules);
  const has = (rule: string) => parsed.some((r) => r.name === rule);
  const isNull = trimmed === '';
  if (isNull) {
    if (has('required')) return `${name} is required.`;
    if (has('nullable')) return undefined;
  }
  // Sizes are values when the value is a number under a numeric rule, else lengths (Laravel's getSize).
  const numeric = (has('integer') || has('numeric')) && NUMERIC.test(trimmed);
  const size = numeric ? Number(trimmed) : [...trimmed].length;
  const unit = numeric ? '' : ' characters';
  for (const { name: rule, args } of parsed) {
    const [a = '', b = ''] = args;
    switch (rule) {
      case 'string':
        if (isNull) return `${name} must be a string.`;
        break;
      case 'integer':
        if (!INTEGER.test(trimmed)) return `${name} must be an integer.`;
        break;
      case 'numeric':
        if (!NUMERIC.test(trimmed)) return `${name} must be a number.`;
        break;
      case 'boolean':
        // Laravel's list: true, false, 0, 1, "0", "1"; the strings "true" and "false" are refused.
        if (!BOOLEAN.includes(trimmed)) return `${name} must be true or false.`;
        break;
      case 'in':
        if (isNull || !args.includes(trimmed)) return `${name} must be one of: ${args.join(', ')}.`;
        break;
      case 'min':
        if (size < Number(a)) return `${name} must be at least ${a}${unit}.`;
        break;
      case 'max':
        if (size > Number(a)) return `${name} may not be greater than ${a}${unit}.`;
        break;
      case 'between':
        if (size < Number(a) || size > Number(b)) return `${name} must be between ${a} and ${b}${unit}.`;
        break;
      case 'regex': {
        const pattern = toRegExp(a);
        if (isNull || !pattern || !testRegex(pattern, trimmed)) return `${name} is not in the required format.`;
        break;
      }
      case 'alpha_dash':
        if (!ALPHA_DASH.test(trimmed)) return `${name} may only contain letters, numbers, dashes and underscores.`;
        break;
      case 'url':
        if (!URL_SHAPE.test(trimmed) || !URL.canParse(trimmed)) return `${name} is not in the required format.`;
        break;
      // Anything else (including `required` and `nullable`, handled above) is not checked.
    }
  }
  return undefined;
}

/** The choices of an `in:` rule, for a select; undefined when the rules have none. */
export function ruleChoices(rules: string): string[] | undefined {
  return parseRules(rules).find((r) => r.name === 'in')?.args;
}

export function isBooleanRule(rules: string): boolean {
  return parseRules(rules).some((r) => r.name === 'boolean');
}

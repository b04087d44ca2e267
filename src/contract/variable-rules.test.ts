import { describe, expect, it } from 'vitest';
import { checkVariableValue as check, isBooleanRule, MAX_VARIABLE_VALUE_LENGTH, parseRules, ruleChoices, toRegExp } from './variable-rules';

const N = 'Max players';

describe('parseRules', () => {
  it('splits on pipes, lower-cases names and splits arguments on commas', () => {
    expect(parseRules('required|Integer|between:1,100')).toEqual([
      { name: 'required', args: [] },
      { name: 'integer', args: [] },
      { name: 'between', args: ['1', '100'] },
    ]);
    expect(parseRules('')).toEqual([]);
    expect(parseRules('required||string')).toEqual([
      { name: 'required', args: [] },
      { name: 'string', args: [] },
    ]);
  });

  it('keeps a regex whole, pipes, commas and escaped delimiters included, then goes on after it', () => {
    expect(parseRules('required|regex:/^(a|b),c\\/d$/i|max:5')).toEqual([
      { name: 'required', args: [] },
      { name: 'regex', args: ['/^(a|b),c\\/d$/i'] },
      { name: 'max', args: ['5'] },
    ]);
    expect(parseRules('regex:#^x|y$#')).toEqual([{ name: 'regex', args: ['#^x|y$#'] }]);
  });
});

describe('checkVariableValue', () => {
  it('required: an empty or all-space value is refused', () => {
    expect(check('', 'required|string', N)).toBe('Max players is required.');
    expect(check('   ', 'required', N)).toBe('Max players is required.');
    expect(check('x', 'required', N)).toBeUndefined();
  });

  it('nullable: an empty value passes every other rule; without it the other rules fail on it', () => {
    expect(check('', 'nullable|string|max:20|integer|regex:/^a$/', N)).toBeUndefined();
    expect(check('', 'string|max:20', N)).toBe('Max players must be a string.');
    expect(check('', 'in:a,b', N)).toBe('Max players must be one of: a, b.');
    expect(check('', 'max:20', N)).toBeUndefined();
  });

  it('string passes every non-empty value', () => {
    expect(check('12', 'string', N)).toBeUndefined();
  });

  it('integer: signed whole numbers without leading zeros, as PHP filter_var', () => {
    for (const ok of ['0', '12', '-3', '+4', ' 7 ']) expect(check(ok, 'integer', N)).toBeUndefined();
    for (const bad of ['1.5', '01', 'abc', '1e3', '--1']) expect(check(bad, 'integer', N)).toBe('Max players must be an integer.');
  });

  it('numeric: decimals and exponents, as PHP is_numeric', () => {
    for (const ok of ['1.5', '-.5', '5.', '1e3', '2E-2']) expect(check(ok, 'numeric', N)).toBeUndefined();
    for (const bad of ['1,5', 'e3', '0x1A', '.']) expect(check(bad, 'numeric', N)).toBe('Max players must be a number.');
  });

  it('boolean: "1" and "0" as Laravel, but not "true" or "false"', () => {
    expect(check('1', 'boolean', N)).toBeUndefined();
    expect(check('0', 'required|boolean', N)).toBeUndefined();
    expect(check('true', 'boolean', N)).toBe('Max players must be true or false.');
    expect(check('false', 'boolean', N)).toBe('Max players must be true or false.');
    expect(check('yes', 'boolean', N)).toBe('Max players must be true or false.');
  });

  it('in: only the listed values, exactly', () => {
    expect(check('survival', 'in:survival,creative', N)).toBeUndefined();
    expect(check('Survival', 'in:survival,creative', N)).toBe('Max players must be one of: survival, creative.');
  });

  it('min, max and between measure the value under integer or numeric, else the length', () => {
    expect(check('150', 'integer|between:1,100', N)).toBe('Max players must be between 1 and 100.');
    expect(check('50', 'integer|between:1,100', N)).toBeUndefined();
    expect(check('150', 'string|between:1,5', N)).toBeUndefined();
    expect(check('150000', 'string|between:1,5', N)).toBe('Max players must be between 1 and 5 characters.');
    expect(check('0.5', 'numeric|min:1', N)).toBe('Max players must be at least 1.');
    expect(check('ab', 'min:3', N)).toBe('Max players must be at least 3 characters.');
    expect(check('abcd', 'string|max:3', N)).toBe('Max players may not be greater than 3 characters.');
    expect(check('4', 'integer|max:3', N)).toBe('Max players may not be greater than 3.');
    // Characters, not bytes or UTF-16 units.
    expect(check('ééé', 'max:3', N)).toBeUndefined();
    expect(check('😀😀😀', 'max:3', N)).toBeUndefined();
  });

  it('regex: PCRE-style delimiters and flags, pipes inside the pattern', () => {
    const jar = 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/';
    expect(check('server.jar', jar, 'Server Jar File')).toBeUndefined();
    expect(check('server.zip', jar, 'Server Jar File')).toBe('Server Jar File is not in the required format.');
    expect(check('B', 'regex:/^(a|b)$/i', N)).toBeUndefined();
    expect(check('c', 'regex:/^(a|b)$/i', N)).toBe('Max players is not in the required format.');
    expect(check('x', 'regex:#^x$#', N)).toBeUndefined();
    // A pattern JS cannot compile refuses rather than letting anything through.
    expect(check('x', 'regex:/(/', N)).toBe('Max players is not in the required format.');
  });

  it('regex runs through the tester it is given (the server bounds its time)', () => {
    expect(check('aaa', 'regex:/^a+$/', N, () => false)).toBe('Max players is not in the required format.');
  });

  it('alpha_dash: letters, marks, digits, dashes and underscores', () => {
    expect(check('my-world_2é', 'alpha_dash', N)).toBeUndefined();
    expect(check('my world', 'alpha_dash', N)).toBe('Max players may only contain letters, numbers, dashes and underscores.');
  });

  it('url: a scheme, // and a host', () => {
    expect(check('https://example.com/pack.zip?x=1', 'url', N)).toBeUndefined();
    for (const bad of ['example.com', 'http://', 'not a url', 'https://exa mple.com'])
      expect(check(bad, 'url', N)).toBe('Max players is not in the required format.');
  });

  it('unknown rules are ignored; rules are checked in order, the first failure wins', () => {
    expect(check('x', 'sometimes|alpha_num|starts_with:y', N)).toBeUndefined();
    expect(check('abc', 'integer|max:1', N)).toBe('Max players must be an integer.');
  });

  it('refuses a NUL, which no process environment can hold, whatever the rules', () => {
    expect(check('a\u0000b', 'nullable|string', N)).toBe('Max players may not contain NUL characters.');
  });

  it('refuses a value past the length cap before the rules run', () => {
    expect(check('a'.repeat(MAX_VARIABLE_VALUE_LENGTH + 1), 'nullable', N)).toBe(
      `Max players may not be greater than ${MAX_VARIABLE_VALUE_LENGTH} characters.`,
    );
  });
});

describe('rule helpers for the page', () => {
  it('finds in: choices and boolean rules', () => {
    expect(ruleChoices('required|in:a,b,c')).toEqual(['a', 'b', 'c']);
    expect(ruleChoices('required|string')).toBeUndefined();
    expect(isBooleanRule('required|boolean')).toBe(true);
    expect(isBooleanRule('required|string')).toBe(false);
  });

  it('toRegExp drops flags JS lacks', () => {
    expect(toRegExp('/a b/x')?.flags).toBe('');
    expect(toRegExp('/a/iu')?.flags).toBe('iu');
    expect(toRegExp('abc')).toBeUndefined();
  });
});

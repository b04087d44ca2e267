import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from './http';
import { applyApiErrors, issuesByField } from './form-errors';

const validation = new ApiError(422, [
  { code: 'ValidationException', status: '422', detail: 'The name field is required.', source: { field: 'name' } },
  { code: 'ValidationException', status: '422', detail: 'The name is too short.', source: { field: 'name' } },
  { code: 'ValidationException', status: '422', detail: 'The notes are too long.', meta: { source_field: 'notes' } },
]);

function collect() {
  const set: Record<string, string> = {};
  return { set, setError: (name: string, e: { type: string; message: string }) => (set[name] = e.message) };
}

describe('applyApiErrors', () => {
  it('puts each field’s first message on that field', () => {
    const { set, setError } = collect();
    expect(applyApiErrors(validation, setError, { fields: ['name', 'notes'] })).toBeNull();
    expect(set).toEqual({ name: 'The name field is required.', notes: 'The notes are too long.' });
  });

  it('renames request fields and returns what has no field', () => {
    const { set, setError } = collect();
    expect(applyApiErrors(validation, setError, { fields: ['title'], rename: { name: 'title' } })).toBe('The notes are too long.');
    expect(set).toEqual({ title: 'The name field is required.' });
  });

  it('puts an error about an element of an array on the field that holds the array', () => {
    const { set, setError } = collect();
    const element = new ApiError(422, [
      { code: 'ValidationException', status: '422', detail: '"10.0.0.300" is not an IP address or CIDR range.', source: { field: 'allowed_ips.1' } },
    ]);
    expect(applyApiErrors(element, setError, { fields: ['description', 'allowed_ips'] })).toBeNull();
    expect(set).toEqual({ allowed_ips: '"10.0.0.300" is not an IP address or CIDR range.' });
    // Not for a field the form lacks.
    expect(applyApiErrors(element, collect().setError, { fields: ['description'] })).toBe('"10.0.0.300" is not an IP address or CIDR range.');
  });

  it('returns the message of an error about no field', () => {
    const { set, setError } = collect();
    const error = new ApiError(409, [{ code: 'ConflictHttpException', status: '409', detail: 'The server is installing.' }]);
    expect(applyApiErrors(error, setError, { fields: ['name'] })).toBe('The server is installing.');
    expect(set).toEqual({});
    expect(applyApiErrors(new Error('boom'), setError, { fields: ['name'] })).toBe('boom');
  });
});

describe('issuesByField', () => {
  it('keeps the first message per field', () => {
    const schema = z.object({ a: z.string().check(z.minLength(2, 'too short'), z.regex(/x/, 'no x')), b: z.number() });
    const result = schema.safeParse({ a: 'y', b: 'no' });
    expect(result.success).toBe(false);
    if (!result.success) expect(Object.keys(issuesByField(result.error.issues))).toEqual(['a', 'b']);
    if (!result.success) expect(issuesByField(result.error.issues).a).toBe('too short');
  });
});

import { describe, expect, it } from 'vitest';
import {
  PERMISSIONS,
  activityQuerySchema,
  checkpointRequestSchema,
  compressSchema,
  errorDocumentSchema,
  errorField,
  isPermission,
  passwordUpdateSchema,
  permits,
  serverListQuerySchema,
  subuserCreateSchema,
  allocationNotesSchema,
  commandSchema,
  paginationSchema,
  endpointPath,
  fileEndpoints,
  serverEndpoints,
} from './index';

describe('permissions', () => {
  it('lists the 40 subuser permission strings once each', () => {
    expect(PERMISSIONS).toHaveLength(40);
    expect(new Set(PERMISSIONS).size).toBe(40);
    expect(PERMISSIONS).toContain('database.view_password');
  });

  it('does not treat object keys as permissions', () => {
    for (const s of ['__proto__', 'constructor', 'toString', '*', 'file.*', 'FILE.READ', ' file.read']) expect(isPermission(s)).toBe(false);
  });

  it('reads * and group.* the way the reference SPA does', () => {
    expect(permits(['*'], 'file.delete')).toBe(true);
    expect(permits(['file.read'], 'file.*')).toBe(true);
    expect(permits(['file.read'], 'file.delete')).toBe(false);
    expect(permits([], 'activity.read')).toBe(false);
  });
});

describe('request bodies (field rules and length limits)', () => {
  it('refuses a subuser email over 191 characters or empty', () => {
    expect(subuserCreateSchema.safeParse({ email: `${'a'.repeat(186)}@x.com`, permissions: ['file.read'] }).success).toBe(false);
    expect(subuserCreateSchema.safeParse({ email: '', permissions: ['file.read'] }).success).toBe(false);
    expect(subuserCreateSchema.safeParse({ email: 'a@b.co', permissions: ['file.read'] }).success).toBe(true);
  });

  it('refuses notes over 256 characters and maps null to empty', () => {
    expect(allocationNotesSchema.safeParse({ notes: 'x'.repeat(257) }).success).toBe(false);
    expect(allocationNotesSchema.parse({ notes: null })).toEqual({ notes: '' });
  });

  it('refuses a password under 8 characters and a mismatched confirmation, naming the field', () => {
    const short = passwordUpdateSchema.safeParse({ current_password: 'x', password: 'short', password_confirmation: 'short' });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.path).toEqual(['password']);
    const mismatch = passwordUpdateSchema.safeParse({ current_password: 'x', password: 'longenough', password_confirmation: 'different' });
    expect(mismatch.error?.issues[0]?.path).toEqual(['password_confirmation']);
  });

  it('refuses an empty or blank command', () => {
    expect(commandSchema.safeParse({ command: '' }).success).toBe(false);
    expect(commandSchema.safeParse({ command: '   ' }).success).toBe(false);
    expect(commandSchema.parse({ command: ' say hi ' })).toEqual({ command: 'say hi' });
  });

  it('defaults an absent or empty root to / and refuses NUL bytes', () => {
    expect(compressSchema.parse({ files: ['a'] }).root).toBe('/');
    expect(compressSchema.parse({ root: '', files: ['a'] }).root).toBe('/');
    expect(compressSchema.safeParse({ root: '/a\0b', files: ['a'] }).success).toBe(false);
    expect(compressSchema.safeParse({ files: [] }).success).toBe(false);
  });

  it('needs a code or a recovery token at the checkpoint', () => {
    const none = checkpointRequestSchema.safeParse({ confirmation_token: 't' });
    expect(none.error?.issues[0]?.path).toEqual(['authentication_code']);
    expect(checkpointRequestSchema.safeParse({ confirmation_token: 't', authentication_code: '12345' }).success).toBe(false);
    expect(checkpointRequestSchema.safeParse({ confirmation_token: 't', authentication_code: '１２３４５６' }).success).toBe(false);
    expect(checkpointRequestSchema.safeParse({ confirmation_token: 't', recovery_token: 'abcdefghij' }).success).toBe(true);
  });
});

describe('queries', () => {
  it('defaults the server list to page 1 of 50 and caps per_page at 100', () => {
    expect(serverListQuerySchema.parse({})).toMatchObject({ page: 1, per_page: 50 });
    expect(serverListQuerySchema.safeParse({ per_page: '101' }).success).toBe(false);
    expect(serverListQuerySchema.safeParse({ page: '1.5' }).success).toBe(false);
  });

  it('accepts only actor as an activity include', () => {
    expect(activityQuerySchema.parse({ include: 'actor' }).include).toEqual(['actor']);
    expect(activityQuerySchema.safeParse({ include: 'actor,secrets' }).success).toBe(false);
    expect(activityQuerySchema.safeParse({ sort: 'ip' }).success).toBe(false);
  });
});

describe('envelopes', () => {
  it('reads the field of an error from source.field or meta.source_field', () => {
    const doc = errorDocumentSchema.parse({
      errors: [{ code: 'ValidationException', status: '422', detail: 'x', meta: { source_field: 'email', rule: 'required' } }],
    });
    expect(errorField(doc.errors[0] ?? { code: '', status: '', detail: '' })).toBe('email');
    expect(errorDocumentSchema.safeParse({ errors: [] }).success).toBe(false);
  });

  it('accepts pagination links as an object or an empty PHP array', () => {
    const base = { total: 1, count: 1, per_page: 50, current_page: 1, total_pages: 1 };
    expect(paginationSchema.safeParse({ ...base, links: {} }).success).toBe(true);
    expect(paginationSchema.safeParse({ ...base, links: [] }).success).toBe(true);
  });
});

describe('endpoint tables', () => {
  it('fills and encodes path parameters', () => {
    expect(endpointPath(fileEndpoints.list.path, { server: 'a/b c' })).toBe('/api/client/servers/a%2Fb%20c/files/list');
    expect(endpointPath(serverEndpoints.detail.path, { server: '1a7ce997' })).toBe('/api/client/servers/1a7ce997');
  });

  it('declares a permission for every file route, matching the reference panel', () => {
    expect(Object.fromEntries(Object.entries(fileEndpoints).map(([name, e]) => [name, e.permission]))).toEqual({
      list: 'file.read',
      contents: 'file.read-content',
      write: 'file.create',
      copy: 'file.create',
      delete: 'file.delete',
      createFolder: 'file.create',
      compress: 'file.archive',
      decompress: 'file.create',
      rename: 'file.update',
      download: 'file.read-content',
      upload: 'file.create',
    });
  });
});

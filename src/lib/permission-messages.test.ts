import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERMISSION_GROUPS, PERMISSIONS } from '../contract/permissions';
import english from './locales/en.json';
import { permissionMessage } from './permission-messages';

describe('permission messages', () => {
  it('describe every permission and group in English as the embedded panel does', () => {
    // The server may not import the SPA's catalogues, so its text is read as written.
    const panel = fs.readFileSync(path.resolve(__dirname, '../../server/routes/account.ts'), 'utf8');
    const checks = [...PERMISSIONS, ...Object.keys(PERMISSION_GROUPS).map((group) => `${group}.*`)];
    const differ = checks.filter((check) => {
      const key = permissionMessage(check);
      return key === undefined || !panel.includes(`: '${english[key]}',`);
    });
    expect(differ).toEqual([]);
  });

  it('has no message for what is not a permission', () => {
    expect(permissionMessage('control.kill')).toBeUndefined();
    expect(permissionMessage('constructor')).toBeUndefined();
  });
});

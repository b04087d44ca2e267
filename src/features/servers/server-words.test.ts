// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from '../../lib/i18n/runtime';
import { t } from './messages';
import { serverConditions } from './server-state';
import { featureLimit } from './server-resources-card';
import { transferStatusText } from './transfer-progress';

afterEach(() => changeLocale('en'));

const suspended = {
  status: 'suspended',
  is_suspended: true,
  is_installing: false,
  is_transferring: false,
  is_node_under_maintenance: false,
} as const;

describe('the servers area in another language', () => {
  it('counts servers with each language’s plural forms', async () => {
    await changeLocale('pl');
    expect([1, 3, 5, 22].map((count) => t('servers.list.count', { count }))).toEqual(['1 serwer', '3 serwery', '5 serwerów', '22 serwery']);
    await changeLocale('ru');
    expect([1, 3, 5, 21].map((count) => t('servers.nav.more', { count }))).toEqual([
      'ещё 1 страница',
      'ещё 3 страницы',
      'ещё 5 страниц',
      'ещё 21 страница',
    ]);
  });

  it('says a server’s state, and what a transfer is doing, in the language chosen at the moment', async () => {
    expect(serverConditions(suspended)[0]).toMatchObject({ kind: 'suspended', label: 'Suspended', reason: 'the server is suspended' });
    await changeLocale('de');
    expect(serverConditions(suspended)[0]).toMatchObject({ kind: 'suspended', label: 'Gesperrt', reason: 'der Server ist gesperrt' });
    expect(transferStatusText('processing')?.note).toBe('Archiv wird gesendet…');
    expect(featureLimit(null)).toBe('Unbegrenzt');
    expect(featureLimit(1234, { locale: 'de' })).toBe('1.234');
  });
});

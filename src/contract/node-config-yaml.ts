import { isScalar, stringify } from 'yaml';

/*
 * A node's Wings `config.yml` as text, from the configuration the panel builds (the application
 * API's `configuration` JSON): the one rendering behind both `panel node:config` and the admin
 * area's node page, so what an operator copies from either is the same file. Real Wings reads it
 * at /etc/pterodactyl/config.yml, Aerie's node with `--config`.
 *
 * Not exported from the contract's index (as cron.ts): only the node page imports it in the SPA,
 * keeping the yaml library in its lazily loaded chunk.
 */

// Wings' own order. Parsing the JSON with the contract's schema puts the keys it names first, so
// the order is set here, where the text is written, not left to whoever built the object.
const KEY_ORDER = [
  'debug',
  'uuid',
  'token_id',
  'token',
  'api',
  'host',
  'port',
  'ssl',
  'enabled',
  'cert',
  'key',
  'upload_limit',
  'system',
  'data',
  'archive_directory',
  'backup_directory',
  'tmp_directory',
  'sftp',
  'bind_port',
  'allowed_mounts',
  'remote',
  'allowed_origins',
];
const rank = (key: unknown): number => {
  const at = KEY_ORDER.indexOf(isScalar(key) ? String(key.value) : String(key));
  return at === -1 ? KEY_ORDER.length : at;
};

export function nodeConfigYaml(configuration: Readonly<Record<string, unknown>>): string {
  // A stable sort: keys this list does not know keep their order, after the known ones.
  return stringify(configuration, { sortMapEntries: (a, b) => rank(a.key) - rank(b.key) });
}

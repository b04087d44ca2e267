import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import * as z from 'zod/mini';

/*
 * Aerie's node reads Wings' `config.yml` (what `panel node:config` prints, or the reference panel's
 * Configuration tab): who it is, the panel it answers to, where it listens and keeps its data.
 * Keys Wings has and this node does not use (ssl, allowed_mounts, debug) are ignored.
 */

const port = z.int().check(z.minimum(0), z.maximum(65535));
const absolute = z.string().check(
  z.minLength(1),
  z.refine((p) => path.isAbsolute(p), 'must be an absolute path'),
);

const configSchema = z.object({
  uuid: z.uuid(),
  token_id: z.string().check(z.minLength(1), z.regex(/^[^.\s]+$/, 'must be one word without dots')),
  token: z.string().check(z.minLength(16), z.regex(/^[^.\s]+$/, 'must be one word without dots')),
  api: z.object({
    host: z._default(z.string().check(z.minLength(1)), '0.0.0.0'),
    port,
    // MiB, as Wings: the largest file one upload may carry.
    upload_limit: z._default(z.int().check(z.minimum(1)), 100),
  }),
  system: z.object({
    data: absolute,
    backup_directory: z.optional(absolute),
    tmp_directory: z.optional(absolute),
    sftp: z._default(z.object({ bind_port: z._default(port, 2022) }), { bind_port: 2022 }),
  }),
  remote: z.url({ protocol: /^https?$/ }),
  allowed_origins: z._default(z.array(z.string()), []),
});

export interface NodeConfig {
  uuid: string;
  tokenId: string;
  token: string;
  host: string;
  port: number;
  uploadLimitBytes: number;
  /** The directory the local daemon keeps everything under: volumes (`system.data`), backups and logs beside them. */
  dataDir: string;
  sftpPort: number;
  /** The panel's URL without a trailing slash. */
  remote: string;
  /** Origins the browser routes accept besides the panel's (`*` for any, as Wings). */
  allowedOrigins: string[];
}

export class NodeConfigError extends Error {}

/** The node's configuration from `file`; a `NodeConfigError` saying in one line what is wrong. */
export function loadNodeConfig(file: string): NodeConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new NodeConfigError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseNodeConfig(text, file);
}

export function parseNodeConfig(text: string, file = 'config.yml'): NodeConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new NodeConfigError(`${file} is not YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the document';
    throw new NodeConfigError(`${file}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const c = parsed.data;
  // The local daemon keeps volumes, backups and logs side by side under one directory.
  const volumes = path.resolve(c.system.data);
  if (path.basename(volumes) !== 'volumes') {
    throw new NodeConfigError(`${file}: system.data must name a directory called volumes (Aerie's node keeps backups and logs beside it)`);
  }
  const dataDir = path.dirname(volumes);
  const backups = c.system.backup_directory;
  if (backups !== undefined && path.resolve(backups) !== path.join(dataDir, 'backups')) {
    throw new NodeConfigError(`${file}: system.backup_directory must be ${path.join(dataDir, 'backups')} (beside system.data)`);
  }
  return {
    uuid: c.uuid,
    tokenId: c.token_id,
    token: c.token,
    host: c.api.host,
    port: c.api.port,
    uploadLimitBytes: c.api.upload_limit * 1024 * 1024,
    dataDir,
    sftpPort: c.system.sftp.bind_port,
    remote: c.remote.replace(/\/+$/, ''),
    allowedOrigins: c.allowed_origins,
  };
}

import { describe, expect, it } from 'vitest';
import {
  allocationListSchema,
  backupListSchema,
  backupSchema,
  eggVariableListSchema,
  serverDatabaseListSchema,
  socketBackupCompletedSchema,
  socketMessageSchema,
  socketStatsSchema,
  sshKeyListSchema,
  subuserListSchema,
  subuserSchema,
  systemPermissionsSchema,
  websocketTokenSchema,
} from './index';
import { socketRequestSchema } from './socket-requests';

/*
 * Contract entries written before the feature that serves them. Each is checked against a document
 * shaped as the reference panel (or Wings) sends it (a Pterodactyl panel, or Wings for the
 * websocket token), so the feature that lands later starts from a shape that is already right.
 */

const uuid = '8f1c6a32-6f0f-4f57-9d8e-2b1b0c5a7d10';

describe('backups', () => {
  const inProgress = {
    object: 'backup',
    attributes: {
      uuid,
      is_successful: false,
      is_locked: false,
      name: 'Backup at 2024-10-24 12:04:30',
      ignored_files: [],
      checksum: null,
      bytes: 0,
      created_at: '2024-10-24T12:04:30+00:00',
      completed_at: null,
    },
  };

  it('reads a backup in progress: no checksum, no completion time', () => {
    const parsed = backupSchema.parse(inProgress);
    expect(parsed.attributes.checksum).toBeNull();
    expect(parsed.attributes.completed_at).toBeNull();
  });

  it('reads a page of backups with backup_count beside the pagination', () => {
    const done = { ...inProgress, attributes: { ...inProgress.attributes, is_successful: true, checksum: 'sha1:ab12', bytes: 2048 } };
    const parsed = backupListSchema.parse({
      object: 'list',
      data: [done, inProgress],
      meta: { backup_count: 2, pagination: { total: 2, count: 2, per_page: 20, current_page: 1, total_pages: 1, links: {} } },
    });
    expect(parsed.meta.backup_count).toBe(2);
    expect(parsed.data[0]?.attributes.checksum).toBe('sha1:ab12');
  });
});

describe('databases', () => {
  const database = {
    object: 'server_database',
    attributes: {
      id: 'bEY4yAD5',
      host: { address: '10.0.0.7', port: 3306 },
      name: 's5_maps',
      username: 'u5_Xk2p9QzL0a',
      connections_from: '%',
      max_connections: 0,
    },
  };

  it('reads a listing without the include: no relationships key', () => {
    const parsed = serverDatabaseListSchema.parse({ object: 'list', data: [database] });
    expect(parsed.data[0]?.attributes.relationships).toBeUndefined();
  });

  it('reads the password include, and its null resource when it is withheld', () => {
    const withPassword = {
      ...database,
      attributes: { ...database.attributes, relationships: { password: { object: 'database_password', attributes: { password: 's3cret' } } } },
    };
    const withheld = {
      ...database,
      attributes: { ...database.attributes, max_connections: 10, relationships: { password: { object: 'null_resource', attributes: null } } },
    };
    const parsed = serverDatabaseListSchema.parse({ object: 'list', data: [withPassword, withheld] });
    expect(parsed.data[0]?.attributes.relationships?.password).toEqual({ object: 'database_password', attributes: { password: 's3cret' } });
    expect(parsed.data[1]?.attributes.relationships?.password.attributes).toBeNull();
  });

  it('refuses a database without its connection limit: max_connections is an integer, never null', () => {
    const nullLimit = { ...database, attributes: { ...database.attributes, max_connections: null } };
    expect(serverDatabaseListSchema.safeParse({ object: 'list', data: [nullLimit] }).success).toBe(false);
  });
});

describe('subusers', () => {
  const subuser = {
    object: 'server_subuser',
    attributes: {
      uuid,
      username: 'friend_x1z',
      email: 'friend@example.com',
      image: 'https://gravatar.com/avatar/0bc83cb571cd1c50ba6f3e8a78ef1346',
      '2fa_enabled': false,
      created_at: '2024-10-24T12:04:30+00:00',
      permissions: ['file.read', 'websocket.connect'],
    },
  };

  it('reads a created subuser without an identifier and a list of them', () => {
    expect(subuserSchema.parse(subuser).attributes.permissions).toEqual(['file.read', 'websocket.connect']);
    expect(subuserListSchema.parse({ object: 'list', data: [subuser] }).data).toHaveLength(1);
  });
});

describe('account, network and startup', () => {
  it('reads SSH keys as PEM with an unprefixed fingerprint', () => {
    const parsed = sshKeyListSchema.parse({
      object: 'list',
      data: [
        {
          object: 'ssh_key',
          attributes: {
            name: 'laptop',
            fingerprint: 'mV9xGbXEBHoR4v1k7wGQk1nZ5bc0u0C8k2e0i0lJp0s',
            public_key: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
            created_at: '2024-10-24T12:04:30+00:00',
          },
        },
      ],
    });
    expect(parsed.data[0]?.attributes.fingerprint.startsWith('SHA256:')).toBe(false);
  });

  it('reads network allocations with a null alias and null notes', () => {
    const parsed = allocationListSchema.parse({
      object: 'list',
      data: [{ object: 'allocation', attributes: { id: 3, ip: '10.0.0.5', ip_alias: null, port: 25566, notes: null, is_default: false } }],
    });
    expect(parsed.data[0]?.attributes.notes).toBeNull();
  });

  it('reads the startup endpoint: variables with the image map in the list meta', () => {
    const parsed = eggVariableListSchema.parse({
      object: 'list',
      data: [
        {
          object: 'egg_variable',
          attributes: {
            name: 'Server Jar File',
            description: '',
            env_variable: 'SERVER_JARFILE',
            default_value: 'server.jar',
            server_value: null,
            is_editable: true,
            rules: 'required|string',
          },
        },
      ],
      meta: {
        startup_command: 'java -jar server.jar',
        docker_images: { 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
        raw_startup_command: 'java -jar {{SERVER_JARFILE}}',
      },
    });
    expect(parsed.meta?.docker_images).toEqual({ 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' });
  });

  it('reads the permission catalogue', () => {
    const parsed = systemPermissionsSchema.parse({
      object: 'system_permissions',
      attributes: {
        permissions: { websocket: { description: 'Allows the user to connect.', keys: { connect: 'Allows a user to connect to the websocket.' } } },
      },
    });
    expect(Object.keys(parsed.attributes.permissions)).toEqual(['websocket']);
  });
});

describe('the Wings websocket', () => {
  it('reads the token document, which has no fractal envelope', () => {
    const parsed = websocketTokenSchema.parse({ data: { token: 'eyJ0eXAiOiJKV1Qi', socket: `wss://node1.example.com:8080/api/servers/${uuid}/ws` } });
    expect(parsed.data.socket).toMatch(/^wss:/);
  });

  it('accepts the frames the reference SPA sends, [null] args included', () => {
    expect(socketRequestSchema.parse({ event: 'auth', args: ['token'] }).event).toBe('auth');
    expect(socketRequestSchema.parse({ event: 'send logs', args: [null] }).event).toBe('send logs');
    expect(socketRequestSchema.parse({ event: 'set state', args: ['restart'] }).event).toBe('set state');
    expect(socketRequestSchema.safeParse({ event: 'send command' }).success).toBe(false);
    expect(socketRequestSchema.safeParse({ event: 'run shell', args: ['rm'] }).success).toBe(false);
  });

  it('reads stats and backup results, which travel as one JSON string argument', () => {
    const frame = socketMessageSchema.parse({
      event: 'stats',
      args: [
        JSON.stringify({
          memory_bytes: 512,
          memory_limit_bytes: 1024,
          cpu_absolute: 12.5,
          network: { rx_bytes: 1, tx_bytes: 2 },
          uptime: 1000,
          state: 'running',
          disk_bytes: 4096,
        }),
      ],
    });
    const stats = socketStatsSchema.parse(JSON.parse(frame.args?.[0] ?? ''));
    expect(stats.state).toBe('running');
    const backup = socketBackupCompletedSchema.parse({ uuid, is_successful: false, checksum: '', checksum_type: 'sha1', file_size: 0 });
    expect(backup.is_successful).toBe(false);
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { localDaemon } from './services/local-node';
import { nodeDaemons } from './services/node-daemons';
import { fixedClock } from './lib/time';
import { loadSecretBox } from './lib/secret-box';
import { CliError, runCli, type CliDeps } from './cli/commands';
import { verifyPassword } from './services/users';
import { test } from './test/fixtures';
import { cliFailure, cliRunner } from './test/cli-support';
import { entryCommand } from './test/bundle';

const it = test
  .extend('deps', async ({ tempDir, database }): Promise<CliDeps> => {
    const clock = fixedClock('2026-03-01T12:00:00Z');
    // Wired as the CLI wires it, so a server's install script lays out its program.
    const daemon = localDaemon(database, { dataDir: tempDir, clock, maxUploadBytes: 1024 * 1024, allowUnlimitedServers: true });
    // Ports of this file's own: a server it starts binds its port on the host, beside other files' servers.
    return {
      db: database,
      nodes: nodeDaemons(daemon, loadSecretBox(tempDir)),
      clock,
      box: loadSecretBox(tempDir),
      ports: { start: 26100, end: 26199 },
    };
  })
  .extend('run', async ({ deps }) => cliRunner(deps))
  .extend('failure', async ({ deps }) => cliFailure(deps));

describe('admin CLI commands', () => {
  it('creates a user and reports it without secrets', async ({ run, database: db }) => {
    const user = await run(
      'user:create',
      '--email',
      'ann@example.com',
      '--username',
      'ann',
      '--password',
      'pw-123456',
      '--admin',
      '--first-name',
      'Ann',
    );
    expect(user).toMatchObject({ username: 'ann', email: 'ann@example.com', admin: true, use_totp: false });
    expect(Object.keys(user).sort()).toEqual(['admin', 'email', 'id', 'use_totp', 'username', 'uuid']);
    const row = await db.selectFrom('users').selectAll().where('username', '=', 'ann').executeTakeFirstOrThrow();
    expect(row.name_first).toBe('Ann');
    expect(await verifyPassword(row.password_hash, 'pw-123456')).toBe(true);
  });

  it('refuses a duplicate user and a missing option', async ({ run, failure }) => {
    await run('user:create', '--email', 'a@example.com', '--username', 'a', '--password', 'pw-123456');
    expect((await failure(['user:create', '--email', 'A@example.com', '--username', 'b', '--password', 'pw-123456'])).message).toMatch(
      /already exists/,
    );
    expect(await failure(['user:create', '--email', 'c@example.com', '--password', 'pw-123456'])).toEqual({
      message: 'Missing --username.',
      exitCode: 2,
    });
  });

  it('turns on TOTP and returns the secret and ten recovery tokens', async ({ run, database: db }) => {
    await run('user:create', '--email', 'b@example.com', '--username', 'b', '--password', 'pw-123456');
    const out = await run('user:2fa', '--email', 'b@example.com');
    expect(out.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(out.recovery_tokens).toHaveLength(10);
    const row = await db.selectFrom('users').select('use_totp').where('username', '=', 'b').executeTakeFirstOrThrow();
    expect(row.use_totp).toBe(1);
  });

  it('creates a server with a primary allocation and changes its status', async ({ run, failure, tempDir: dataDir }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const server = await run('server:create', '--owner', 'o@example.com', '--name', 'Lobby', '--memory', '2048');
    expect(server).toMatchObject({ name: 'Lobby', owner: 'o@example.com', allocation: '127.0.0.1:26100', status: null });
    expect(server.identifier).toBe(String(server.uuid).slice(0, 8));
    expect(fs.existsSync(path.join(dataDir, 'volumes', String(server.uuid)))).toBe(true);

    expect(await run('server:status', '--server', String(server.identifier), '--status', 'suspended')).toMatchObject({ status: 'suspended' });
    expect(await run('server:status', '--server', String(server.uuid), '--status', 'none')).toMatchObject({ status: null });
    expect((await failure(['server:status', '--server', String(server.identifier), '--status', 'paused'])).exitCode).toBe(2);
    expect((await failure(['server:status', '--server', 'nope1234', '--status', 'none'])).message).toMatch(/No server/);
    expect((await failure(['server:create', '--owner', 'o@example.com', '--name', 'X', '--memory', 'lots'])).message).toMatch(/whole number/);
  });

  it(
    'creates a server on the demo game egg by default, which starts and runs; --egg picks another',
    { timeout: 30_000 },
    async ({ run, failure, deps, database: db }) => {
      await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
      const server = await run('server:create', '--owner', 'o@example.com', '--name', 'Demo');
      const uuid = String(server.uuid);
      const eggOf = async (id: string) =>
        (
          await db
            .selectFrom('servers')
            .innerJoin('eggs', 'eggs.id', 'servers.egg_id')
            .select('eggs.name')
            .where('servers.uuid', '=', id)
            .executeTakeFirstOrThrow()
        ).name;
      expect(await eggOf(uuid)).toBe('Demo game');
      const processes = deps.nodes.local.process;
      if (!processes) throw new Error('the local node runs processes');
      try {
        await processes.power(uuid, 'start');
        for (let i = 0; i < 250 && processes.state(uuid) !== 'running'; i += 1) await new Promise((r) => setTimeout(r, 20));
        expect(processes.state(uuid)).toBe('running');
        await processes.power(uuid, 'stop');
        expect(processes.state(uuid)).toBe('offline');
      } finally {
        if (processes.state(uuid) !== 'offline') await processes.power(uuid, 'kill');
      }

      const paper = await run('server:create', '--owner', 'o@example.com', '--name', 'Java', '--egg', 'paper');
      expect(await eggOf(String(paper.uuid))).toBe('Paper');
      const eggId = (await db.selectFrom('eggs').select('id').where('name', '=', 'Paper').executeTakeFirstOrThrow()).id;
      expect(await eggOf(String((await run('server:create', '--owner', 'o@example.com', '--name', 'J2', '--egg', String(eggId))).uuid))).toBe(
        'Paper',
      );
      expect(await failure(['server:create', '--owner', 'o@example.com', '--name', 'X', '--egg', 'Bedrock'])).toEqual({
        message: 'No egg named or numbered "Bedrock".',
        exitCode: 2,
      });
    },
  );

  it("reports the install: installing while it runs, install_failed when the egg's script fails", async ({ run, deps, database: db }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    // The built-in eggs exist once a first server was created.
    expect(await run('server:create', '--owner', 'o@example.com', '--name', 'Fine', '--egg', 'Paper')).toMatchObject({ status: null });
    const changed = await db.updateTable('eggs').set({ script_install: 'echo fetching; exit 4' }).where('name', '=', 'Paper').executeTakeFirst();
    expect(changed.numUpdatedRows).toBe(1n);
    const seen: (string | null)[] = [];
    const off = deps.nodes.local.events.subscribe(async (event) => {
      if (event.type !== 'install.completed') return;
      seen.push((await db.selectFrom('servers').select('status').where('uuid', '=', event.server).executeTakeFirstOrThrow()).status);
    });
    const broken = await run('server:create', '--owner', 'o@example.com', '--name', 'Broken', '--egg', 'Paper');
    off();
    expect(seen).toEqual(['installing']);
    expect(broken).toMatchObject({ status: 'install_failed' });
    const row = await db.selectFrom('servers').select('status').where('uuid', '=', String(broken.uuid)).executeTakeFirstOrThrow();
    expect(row.status).toBe('install_failed');
  });

  it('gives new servers the lowest free port of the range, and says when it is full', async ({ deps, run }) => {
    const narrow = (...argv: string[]) => runCli(argv, { ...deps, ports: { start: 30000, end: 30001 } }) as Promise<Record<string, unknown>>;
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    expect(await narrow('server:create', '--owner', 'o@example.com', '--name', 'A')).toMatchObject({ allocation: '127.0.0.1:30000' });
    const b = await narrow('server:create', '--owner', 'o@example.com', '--name', 'B');
    expect(b).toMatchObject({ allocation: '127.0.0.1:30001' });
    await expect(narrow('server:create', '--owner', 'o@example.com', '--name', 'C')).rejects.toThrow(/no free ports/i);
    // Without a range: the default one.
    expect(await run('server:create', '--owner', 'o@example.com', '--name', 'D')).toMatchObject({ allocation: '127.0.0.1:26100' });
  });

  it('creates a numbered fleet of servers in one call with --count', async ({ run, failure }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const out = await run('server:create', '--owner', 'o@example.com', '--name', 'Fleet', '--count', '12');
    const servers = out.servers as { name: string; allocation: string }[];
    expect(servers.map((s) => s.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Fleet ${String(i + 1).padStart(2, '0')}`));
    expect(new Set(servers.map((s) => s.allocation)).size).toBe(12);
    expect((await failure(['server:create', '--owner', 'o@example.com', '--name', 'X', '--count', '0'])).exitCode).toBe(2);
  });

  it('adds a subuser with normalised permissions and creates an API key', async ({ run }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const server = await run('server:create', '--owner', 'o@example.com', '--name', 'S');
    const sub = await run(
      'subuser:add',
      '--server',
      String(server.identifier),
      '--email',
      'friend@example.com',
      '--permissions',
      'control.console,file.read',
    );
    expect(sub).toMatchObject({ email: 'friend@example.com', server: server.identifier });
    expect(sub.permissions).toEqual(['websocket.connect', 'control.console', 'file.read']);
    const key = await run('apikey:create', '--email', 'o@example.com', '--description', 'ci');
    expect(key.token).toMatch(/^ptlc_[A-Za-z0-9]{48}$/);
  });

  it('refuses unknown permissions for a subuser, naming them, and adds nobody', async ({ run, failure, database: db }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const server = String((await run('server:create', '--owner', 'o@example.com', '--name', 'S')).identifier);
    expect(await failure(['subuser:add', '--server', server, '--email', 'f@example.com', '--permissions', 'file.read,settings.read,bogus'])).toEqual({
      message: '--permissions: unknown "settings.read", "bogus"; see GET /api/client/permissions.',
      exitCode: 2,
    });
    expect(await db.selectFrom('subusers').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('users').select('email').where('email', '=', 'f@example.com').execute()).toEqual([]);
  });

  it('says how a subuser added under an unknown e-mail gets a password, and says nothing for a known one', async ({ run }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    await run('user:create', '--email', 'known@example.com', '--username', 'known', '--password', 'pw-123456');
    const server = String((await run('server:create', '--owner', 'o@example.com', '--name', 'S')).identifier);
    const added = await run('subuser:add', '--server', server, '--email', 'new@example.com', '--permissions', 'file.read');
    expect(added.note).toMatch(/random password nobody knows[\s\S]*user:password --email new@example\.com/);
    const known = await run('subuser:add', '--server', server, '--email', 'known@example.com', '--permissions', 'file.read');
    expect(known.note).toBeUndefined();
  });

  it('refuses passwords under 8 characters wherever it takes one', async ({ deps, run, failure }) => {
    expect(await failure(['user:create', '--email', 's@example.com', '--username', 's', '--password', 'seven77'])).toEqual({
      message: '--password must be at least 8 characters.',
      exitCode: 2,
    });
    await run('user:create', '--email', 's@example.com', '--username', 's', '--password', 'eight888');
    const short = await runCli(['user:password', '--email', 's@example.com'], { ...deps, readStdin: () => 'seven77\n' }).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(CliError);
    expect((short as CliError).message).toBe('The password read from standard input must be at least 8 characters.');
  });

  it('lists and deletes API keys, never showing a token again', async ({ run, failure, database: db }) => {
    await run('user:create', '--email', 'k@example.com', '--username', 'k', '--password', 'pw-123456');
    const key = await run('apikey:create', '--email', 'k@example.com', '--description', 'ci', '--allowed-ips', '10.0.0.0/8, 203.0.113.4');
    expect(key.allowed_ips).toEqual(['10.0.0.0/8', '203.0.113.4']);
    const listed = await run('apikey:list', '--email', 'k@example.com');
    expect(listed).toEqual({
      email: 'k@example.com',
      keys: [
        {
          identifier: key.identifier,
          key_type: 'account',
          description: 'ci',
          allowed_ips: ['10.0.0.0/8', '203.0.113.4'],
          // An account key holds no application grants.
          permissions: {},
          last_used_at: null,
          created_at: '2026-03-01T12:00:00.000Z',
        },
      ],
    });
    expect(JSON.stringify(listed)).not.toContain(String(key.token));
    expect(await run('apikey:delete', '--identifier', String(key.identifier))).toEqual({ deleted: key.identifier });
    expect(await db.selectFrom('api_keys').select('id').execute()).toEqual([]);
    expect((await failure(['apikey:delete', '--identifier', String(key.identifier)])).message).toBe(
      `No API key with identifier ${String(key.identifier)}.`,
    );
    expect((await failure(['apikey:create', '--email', 'k@example.com', '--allowed-ips', 'my-laptop'])).exitCode).toBe(2);
  });

  it('answers an unknown command or option with the usage', async ({ failure }) => {
    const unknown = await failure(['user:erase']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.message).toMatch(/Unknown command "user:erase"[\s\S]*Usage:/);
    expect((await failure(['user:2fa', '--mail', 'x'])).message).toMatch(/Unknown option '--mail'/);
  });

  it("imports a server's activity with its own times and actors, all or nothing", async ({ run, failure, database: db, tempDir: dataDir }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const server = await run('server:create', '--owner', 'o@example.com', '--name', 'S');
    const file = path.join(dataDir, 'activity.json');
    const entries = [
      { event: 'server:power.start', timestamp: '2026-02-28T09:00:00Z', actor: 'o@example.com', ip: '203.0.113.7' },
      { event: 'server:backup.complete', timestamp: '2026-02-28T11:00:00+01:00', actor: null, properties: { name: 'Nightly' } },
      { event: 'server:console.command', timestamp: '2026-03-01T11:59:00Z', actor: 'o', properties: { command: 'say hi' } },
    ];
    fs.writeFileSync(file, JSON.stringify(entries));
    expect(await run('activity:import', '--server', String(server.identifier), '--file', file)).toEqual({ server: server.identifier, imported: 3 });
    const rows = await db
      .selectFrom('activity_logs as l')
      .innerJoin('activity_subjects as s', 's.activity_log_id', 'l.id')
      .select(['l.event', 'l.timestamp', 'l.actor_id', 'l.ip', 'l.properties', 's.subject_type', 's.subject_id'])
      .orderBy('l.timestamp')
      .execute();
    // Times keep their instant (an offset is converted), actors resolve by email or username.
    expect(rows.map((r) => [r.event, r.timestamp, r.actor_id, r.ip, r.properties])).toEqual([
      ['server:power.start', '2026-02-28T09:00:00.000Z', 1, '203.0.113.7', '{}'],
      ['server:backup.complete', '2026-02-28T10:00:00.000Z', null, '', '{"name":"Nightly"}'],
      ['server:console.command', '2026-03-01T11:59:00.000Z', 1, '', '{"command":"say hi"}'],
    ]);
    expect(rows.every((r) => r.subject_type === 'server' && r.subject_id === server.id)).toBe(true);

    // One bad entry refuses the whole file.
    const refused = async (bad: object[]) => {
      fs.writeFileSync(file, JSON.stringify(bad));
      return (await failure(['activity:import', '--server', String(server.identifier), '--file', file])).message;
    };
    const ok = { event: 'server:power.start', timestamp: '2026-02-28T09:00:00Z', actor: 'o@example.com' };
    expect(await refused([ok, { ...ok, actor: 'nobody@example.com' }])).toBe('Entry 1: no user with email or username nobody@example.com.');
    expect(await refused([ok, { ...ok, timestamp: '2026-03-02T00:00:00Z' }])).toMatch(/^Entry 1: timestamp .* is in the future\.$/);
    expect(await refused([{ ...ok, event: 'user:account.email-changed' }])).toMatch(/entry 0\.event must be a server:… event/);
    expect(await refused([{ ...ok, event: 'server:made-up' }])).toMatch(/entry 0\.event must be an activity event the panel knows/);
    expect(await refused([{ ...ok, timestamp: 'yesterday' }])).toMatch(/entry 0\.timestamp must be an ISO 8601 date-time/);
    expect(await refused([{ ...ok, ip: 'not an address' }])).toMatch(/entry 0\.ip/);
    fs.writeFileSync(file, '{"event": ');
    expect((await failure(['activity:import', '--server', String(server.identifier), '--file', file])).message).toMatch(/is not JSON/);
    expect((await failure(['activity:import', '--server', String(server.identifier), '--file', path.join(dataDir, 'missing.json')])).message).toMatch(
      /^Cannot read/,
    );
    expect((await failure(['activity:import', '--server', String(server.identifier)])).exitCode).toBe(2);
    expect(
      await db
        .selectFrom('activity_logs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: 3 });
  });

  it('seeds demo data only into an empty panel', async ({ run, failure }) => {
    const summary = await run('demo');
    expect(summary.accounts).toHaveLength(2);
    expect((await failure(['demo'])).message).toMatch(/already has users/);
  });
});

describe('admin CLI process', () => {
  // The first test runs the CLI as `npm run -s panel` does (tsx); the others from the run's bundle
  // of the same code (server/test/vitest-global-setup.ts), which starts several times faster.
  const cliCommand = (args: readonly string[]) => entryCommand('server/cli.ts', process.env.AERIE_CLI_BUNDLE, args);

  it('prints one JSON object as its last line, and a one-line error otherwise', ({ tempDir: dataDir }) => {
    const env = { ...process.env, PANEL_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const tsx = path.resolve('node_modules/.bin/tsx');
    const out = execFileSync(tsx, ['server/cli.ts', 'user:create', '--email', 'p@example.com', '--username', 'p', '--password', 'pw-123456'], {
      env,
      encoding: 'utf8',
    });
    const last = out.trim().split('\n').pop() ?? '';
    expect(JSON.parse(last)).toMatchObject({ email: 'p@example.com', admin: false });

    const bad = spawnSync(tsx, ['server/cli.ts', 'user:2fa', '--email', 'nobody@example.com'], { env, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim()).toBe('No user with email nobody@example.com.');
  });

  it(
    'help and <command> --help print to standard output and succeed; a bare call is a usage error (issue 22 #13)',
    { timeout: 90_000 },
    ({ tempDir: dataDir }) => {
      const env = { ...process.env, PANEL_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      const cli = (...args: string[]) => spawnSync(...cliCommand(args), { env, encoding: 'utf8' });
      for (const args of [['help'], ['--help'], ['-h']]) {
        const r = cli(...args);
        expect([r.status, r.stderr]).toEqual([0, '']);
        expect(r.stdout).toContain('user:create --email E');
      }
      const one = cli('server:create', '--help');
      expect([one.status, one.stderr]).toEqual([0, '']);
      expect(one.stdout).toMatch(/^Usage: npm run -s panel -- server:create --owner EMAIL/);
      expect(one.stdout).toContain('named "N 01"');
      expect(one.stdout).not.toContain('user:create');
      expect(cli('help', 'dbhost:list').stdout).toMatch(/^Usage: npm run -s panel -- dbhost:list \[--json\] +the database hosts/);
      const bare = cli();
      expect([bare.status, bare.stdout]).toEqual([2, '']);
      expect(bare.stderr).toContain('Usage:');
      expect(cli('nope:nope', '--help').status).toBe(2);
    },
  );

  it('user:password reads the new password from standard input, never from its arguments', { timeout: 60_000 }, ({ tempDir: dataDir }) => {
    const env = { ...process.env, PANEL_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    execFileSync(...cliCommand(['user:create', '--email', 'r@example.com', '--username', 'r', '--password', 'first-password']), { env });
    const out = execFileSync(...cliCommand(['user:password', '--email', 'r@example.com']), {
      env,
      encoding: 'utf8',
      input: 'second-password\n',
    });
    expect(JSON.parse(out.trim().split('\n').pop() ?? '')).toMatchObject({ email: 'r@example.com', sessions_ended: 0 });
    const refused = spawnSync(...cliCommand(['user:password', '--email', 'r@example.com', '--password', 'x']), {
      env,
      encoding: 'utf8',
      input: '',
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/Unknown option '--password'/);
  });

  it('activity:import reads the entries from standard input with --file -', { timeout: 60_000 }, ({ tempDir: dataDir }) => {
    const env = { ...process.env, PANEL_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const cli = (args: string[], input?: string) => {
      const out = execFileSync(...cliCommand(args), { env, encoding: 'utf8', input });
      return JSON.parse(out.trim().split('\n').pop() ?? '') as Record<string, unknown>;
    };
    cli(['user:create', '--email', 'q@example.com', '--username', 'q', '--password', 'pw-123456']);
    const server = cli(['server:create', '--owner', 'q@example.com', '--name', 'Piped']);
    const entries = [{ event: 'server:power.stop', timestamp: '2026-01-01T00:00:00Z', actor: 'q' }];
    expect(cli(['activity:import', '--server', String(server.identifier), '--file', '-'], JSON.stringify(entries))).toEqual({
      server: server.identifier,
      imported: 1,
    });
  });
});

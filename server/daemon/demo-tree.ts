import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { FileCapability } from './capabilities';
import { DaemonError } from './types';

/*
 * A demo server's volume: what a Paper server looks like after a first start, small (well under
 * 1 MB) and written through the file capability so any daemon can be seeded the same way.
 */

const SERVER_PROPERTIES = `#Minecraft server properties
#Sun Mar 01 12:00:00 UTC 2026
enable-jmx-monitoring=false
rcon.port=25575
level-seed=
gamemode=survival
enable-command-block=false
enable-query=false
level-name=world
motd=A Minecraft Server
query.port=25565
pvp=true
difficulty=easy
network-compression-threshold=256
max-tick-time=60000
require-resource-pack=false
max-players=20
online-mode=true
enable-status=true
allow-flight=false
view-distance=10
server-ip=
allow-nether=true
server-port=25565
enable-rcon=false
sync-chunk-writes=true
op-permission-level=4
white-list=false
spawn-protection=16
`;

const BUKKIT_YML = `settings:
  allow-end: true
  warn-on-overload: true
  permissions-file: permissions.yml
  update-folder: update
  shutdown-message: Server closed
  minimum-api: none
spawn-limits:
  monsters: 70
  animals: 10
  water-animals: 5
  ambient: 15
chunk-gc:
  period-in-ticks: 600
ticks-per:
  animal-spawns: 400
  monster-spawns: 1
  autosave: 6000
`;

const SPIGOT_YML = `config-version: 12
settings:
  debug: false
  bungeecord: false
  timeout-time: 60
  restart-on-crash: true
  restart-script: ./start.sh
  netty-threads: 4
  save-user-cache-on-stop-only: false
world-settings:
  default:
    verbose: false
    view-distance: default
    simulation-distance: default
    mob-spawn-range: 8
`;

const START_SH = `#!/bin/sh
# Starts the server with the memory the panel allows.
exec java -Xms128M -XX:MaxRAMPercentage=95.0 -Dterminal.jline=false -Dterminal.ansi=true -jar server.jar nogui
`;

const README = `# Demo server

This volume was created by Aerie's demo data. Everything here is an ordinary file: edit
\`server.properties\`, browse \`plugins/\`, download a log or compress the \`world/\` folder.
`;

function logLines(day: string, count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const s = String(i % 60).padStart(2, '0');
    const m = String(Math.floor(i / 60) % 60).padStart(2, '0');
    lines.push(
      `[${day} 12:${m}:${s}] [Server thread/INFO]: ${i % 7 === 0 ? 'Saving the game (this may take a moment!)' : `Player${i % 5} issued server command: /spawn`}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Deterministic pseudo-random bytes (world data must look binary, not be random each seed). */
function bytes(seed: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(seed).digest();
  for (let off = 0; off < size; off += block.length) {
    block.copy(out, off);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/** Gives a demo server (already created on its node) a realistic volume. */
export async function writeDemoTree(files: FileCapability, serverUuid: string): Promise<void> {
  const limit = { maxBytes: 1024 * 1024 };
  const text: Record<string, string> = {
    'server.properties': SERVER_PROPERTIES,
    'eula.txt': '#By changing the setting below to TRUE you are indicating your agreement to our EULA (https://aka.ms/MinecraftEULA).\neula=true\n',
    'bukkit.yml': BUKKIT_YML,
    'spigot.yml': SPIGOT_YML,
    'ops.json': `${JSON.stringify([{ uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch', level: 4, bypassesPlayerLimit: false }], null, 2)}\n`,
    'whitelist.json': '[]\n',
    'banned-players.json': '[]\n',
    'start.sh': START_SH,
    'README.md': README,
    'logs/latest.log': logLines('2026-03-01', 200),
    'plugins/EssentialsX/config.yml': 'ops-name-color: "4"\nnickname-prefix: "~"\nmax-nick-length: 15\nteleport-cooldown: 0\nhome-limit: 3\n',
    'plugins/LuckPerms/config.yml': 'server: global\nstorage-method: h2\nsync-minutes: -1\nwatch-files: true\n',
    'world/session.lock': '\u2603',
  };
  for (const [file, content] of Object.entries(text)) await files.write(serverUuid, file, Buffer.from(content), limit);
  await files.write(serverUuid, 'logs/2026-02-27-1.log.gz', zlib.gzipSync(logLines('2026-02-27', 300)), limit);
  await files.write(serverUuid, 'logs/2026-02-28-1.log.gz', zlib.gzipSync(logLines('2026-02-28', 300)), limit);
  await files.write(serverUuid, 'plugins/EssentialsX.jar', bytes('essentials', 24 * 1024), limit);
  await files.write(serverUuid, 'plugins/LuckPerms.jar', bytes('luckperms', 16 * 1024), limit);
  await files.write(serverUuid, 'world/level.dat', zlib.gzipSync(Buffer.concat([Buffer.from([0x0a, 0x00, 0x00]), bytes('level', 2048)])), limit);
  for (const region of ['r.0.0.mca', 'r.0.-1.mca', 'r.-1.0.mca', 'r.-1.-1.mca']) {
    await files.write(serverUuid, `world/region/${region}`, bytes(region, 32 * 1024), limit);
  }
  // Seeding twice must not fail on the folder the first run made.
  await files.createDirectory(serverUuid, '/world', 'playerdata').catch((error: unknown) => {
    if (!(error instanceof DaemonError && error.kind === 'bad_request')) throw error;
  });
}

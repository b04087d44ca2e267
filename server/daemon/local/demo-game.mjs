#!/usr/bin/env node
/* global process, setInterval, clearInterval -- a Node program, run on its own */
/*
 * Aerie's demo game server: a small program that behaves like a game server on a console, so the
 * demo eggs run on any machine with Node (no Java). It prints a startup log with ANSI colours and
 * a "Done" line, answers a few commands on standard input, logs joins, keeps a world folder in its
 * working directory, and uses a little CPU and memory. Plain Node, no dependencies: it is copied
 * into a server's volume and run there, inside the sandbox.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const RESET = '\x1b[0m';
const colour = { info: '\x1b[32m', warn: '\x1b[33m', error: '\x1b[31m', chat: '\x1b[36m' };
const world = path.resolve('world');
const started = Date.now();
const players = new Set();
const NAMES = ['Alex', 'Steve', 'Robin', 'Sam', 'Kai'];
// The egg's variables come from the environment, the port from the startup command (`--port N`).
const argPort = process.argv.indexOf('--port');
const port = (argPort > 0 ? process.argv[argPort + 1] : undefined) ?? process.env.SERVER_PORT ?? '25565';
const maxPlayers = Number(process.env.MAX_PLAYERS) > 0 ? Number(process.env.MAX_PLAYERS) : 20;
const motd = process.env.MOTD ?? 'A demo server';

function log(level, message) {
  const time = new Date().toISOString().slice(11, 19);
  process.stdout.write(`[${time}] [Server thread/${level.toUpperCase()}]: ${colour[level] ?? ''}${message}${RESET}\n`);
}

function save() {
  fs.mkdirSync(world, { recursive: true });
  fs.writeFileSync(path.join(world, 'level.json'), JSON.stringify({ saved: new Date().toISOString(), players: [...players] }, null, 2));
}

// A little memory and CPU: a world of chunks, ticked twenty times a second.
const chunks = Array.from({ length: 64 }, (_, i) => new Float64Array(4096).fill(i));
let ticks = 0;
const tick = setInterval(() => {
  ticks += 1;
  const chunk = chunks[ticks % chunks.length];
  for (let i = 0; i < chunk.length; i += 1) chunk[i] = Math.sin(chunk[i] + ticks);
}, 50);

const joins = setInterval(() => {
  const name = NAMES[Math.floor(Math.random() * NAMES.length)];
  if (players.has(name)) {
    players.delete(name);
    log('info', `${name} left the game`);
  } else {
    if (players.size >= maxPlayers) return;
    players.add(name);
    log('info', `${name} joined the game`);
    log('chat', `[Server] ${motd}`);
  }
}, 45_000);

function stop(code = 0) {
  log('info', 'Stopping server');
  log('info', 'Saving worlds');
  save();
  clearInterval(tick);
  clearInterval(joins);
  log('info', 'Goodbye');
  process.exit(code);
}

const COMMANDS = {
  help: () => log('info', 'Commands: help, list, say <message>, save-all, stop'),
  list: () => log('info', `There are ${players.size} of a max of ${maxPlayers} players online: ${[...players].join(', ')}`),
  say: (rest) => log('chat', `[Server] ${rest}`),
  'save-all': () => {
    log('info', 'Saving the game (this may take a moment!)');
    save();
    log('info', 'Saved the game');
  },
  stop: () => stop(0),
};

// Before the "Done" line: a stop signal right after it must find its handler.
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

log('info', `Starting demo game server version 1.0 (${process.version})`);
log('info', 'Loading properties');
log('info', `Default game type: SURVIVAL`);
log('info', `Message of the day: ${motd}`);
log('warn', 'This is a demo server: it plays no game, it only behaves like one.');
log('info', `Starting server on ${process.env.SERVER_IP ?? '0.0.0.0'}:${port}`);
log('info', 'Preparing level "world"');
save();
log('info', `Done (${((Date.now() - started) / 1000).toFixed(3)}s)! For help, type "help"`);

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const trimmed = line.trim();
  if (trimmed === '') return;
  const [name, ...rest] = trimmed.split(/\s+/);
  const command = COMMANDS[name.toLowerCase()];
  if (command) command(rest.join(' '));
  else log('info', `Unknown command "${name}". Type "help" for help.`);
});

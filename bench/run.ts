import { benchApi } from './api';
import { benchBackups } from './backups';
import { benchConsole } from './console';
import { benchFiles } from './files';
import { benchNodes } from './nodes';
import { benchPages } from './pages';
import { benchSandbox } from './sandbox';
import { benchSchedules } from './schedules';
import { benchSftp } from './sftp';
import { benchTransfers } from './transfers';
import { benchUploads } from './uploads';

/*
 * `npm run bench [-- section…]`: prints figures, asserts nothing (no test asserts a time). Each
 * section starts its own panel on a throw-away data dir. With no section named, all run.
 */

const SECTIONS: Record<string, { what: string; run: () => Promise<string[]> }> = {
  api: { what: 'server list, filter[*] search and activity page latency (1,000 servers, 10,000 entries)', run: benchApi },
  pages: { what: 'JS and CSS each page loads in Chromium, against its budget', run: benchPages },
  files: { what: 'files/list of 10,000 entries against bare listings; files/compress against tar -czf', run: benchFiles },
  nodes: {
    what: "files/list of 10,000 entries and command → reply on Aerie's node as its own process against the panel's own node; transfers there (200 MB against tar)",
    run: benchNodes,
  },
  console: { what: 'command → reply latency and output throughput through the console websocket', run: benchConsole },
  backups: { what: 'a backup and a restore of the files tree against tar -czf and tar -xzf', run: benchBackups },
  sandbox: { what: 'demo game start time; a player connection through the allocation against direct loopback', run: benchSandbox },
  schedules: { what: '1,000 servers with a schedule due in the same minute: time to the last task, and memory', run: benchSchedules },
  sftp: { what: 'an SFTP upload and download of a 200 MB file against cp', run: benchSftp },
  transfers: { what: 'a 200 MB server moved between two local nodes over HTTP against tar -cz | tar -xz', run: benchTransfers },
  uploads: { what: 'a 150 MB browser upload in chunks through the signed link, beside one multipart body', run: benchUploads },
};

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0) {
    console.error(`Unknown section ${unknown.join(', ')}. Usage: npm run bench [-- ${Object.keys(SECTIONS).join('|')} …]`);
    for (const [name, section] of Object.entries(SECTIONS)) console.error(`  ${name.padEnd(7)} ${section.what}`);
    return 2;
  }
  const chosen = argv.length > 0 ? argv : Object.keys(SECTIONS);
  for (const [i, name] of chosen.entries()) {
    const section = SECTIONS[name];
    if (!section) continue;
    if (i > 0) console.log('');
    try {
      for (const line of await section.run()) console.log(line);
    } catch (error) {
      console.log(`${name}: stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));

import { sql, type Kysely } from 'kysely';

/*
 * Eggs carry an install script, as the reference panel's do: `script_install` (run with the
 * server's volume mounted, on create and on reinstall), the image it runs in (`script_container`)
 * and its interpreter (`script_entry`). The demo game egg's script places its program.
 */

/** The demo game egg's install script (the same text as `DEMO_EGG` in services/servers.ts). */
export const DEMO_INSTALL_SCRIPT = `#!/bin/sh
# Places the demo game's program into the server's volume; other files stay as they are.
set -e
cd /mnt/server
echo "Installing the demo game into /mnt/server"
cp /mnt/install/demo-game.mjs demo-game.mjs
echo "Installed demo-game.mjs"
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('eggs').addColumn('script_install', 'text').execute();
  await db.schema
    .alterTable('eggs')
    .addColumn('script_container', 'text', (c) => c.notNull().defaultTo('ghcr.io/pterodactyl/installers:alpine'))
    .execute();
  await db.schema
    .alterTable('eggs')
    .addColumn('script_entry', 'text', (c) => c.notNull().defaultTo('ash'))
    .execute();
  await sql`UPDATE eggs SET script_install = ${DEMO_INSTALL_SCRIPT} WHERE uuid = '5c0a6a43-9a53-4d8e-8f4c-6d3f2a9e7b10'`.execute(db);
}

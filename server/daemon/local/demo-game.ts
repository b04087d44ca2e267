import { fileURLToPath } from 'node:url';

/** The demo game egg's program (`demo-game.mjs` beside this file), which its install script copies into a new server's volume. */
export const DEMO_GAME_PROGRAM = fileURLToPath(new URL('./demo-game.mjs', import.meta.url));

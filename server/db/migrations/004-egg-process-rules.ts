import type { Kysely } from 'kysely';

/*
 * Eggs say how their program starts and stops, as the reference panel's eggs do: `config_startup`
 * (JSON, `{"done": "..."}` or a list of done lines) and `config_stop` (a console line such as
 * `stop`, `^C`, or a signal name). Existing eggs keep what every server did until now: running as
 * soon as the process is, stopped with the `stop` command.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('eggs')
    .addColumn('config_startup', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .alterTable('eggs')
    .addColumn('config_stop', 'text', (c) => c.notNull().defaultTo('stop'))
    .execute();
}

import type { Db } from '../index';

/** The panel's settings table: key → value. */

export async function all(db: Db): Promise<Map<string, string>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** Sets each key to its value, and removes the keys given as null (back to the default), in one transaction. */
export async function write(db: Db, changes: ReadonlyMap<string, string | null>, at: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of changes) {
      if (value === null) await trx.deleteFrom('settings').where('key', '=', key).execute();
      else
        await trx
          .insertInto('settings')
          .values({ key, value, updated_at: at })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: at }))
          .execute();
    }
  });
}

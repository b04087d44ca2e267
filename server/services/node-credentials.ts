import type { Db } from '../db';
import { nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { randomAlnum } from '../lib/crypto';
import { isSealed, type SecretBox } from '../lib/secret-box';

/*
 * A node's credentials, as Wings' config.yml holds them: a 16-character `token_id` and a
 * 64-character `token`. The token signs the node's JWTs and authenticates panel and node to each
 * other, so it is stored sealed like the panel's other secrets: a copy of the database alone does
 * not let anyone forge a console token or speak for a node.
 */

export type NodeCredentials = Pick<NodeRow, 'daemon_token_id' | 'daemon_token'>;

export function newNodeCredentials(box: SecretBox): NodeCredentials {
  return { daemon_token_id: randomAlnum(16), daemon_token: box.seal(randomAlnum(64)) };
}

/**
 * The node's token in the clear. A token stored before sealing existed is used as it is (start
 * seals it); a sealed one this data dir's key cannot open is an error, never a silent other key.
 */
export function openNodeToken(box: SecretBox, stored: string): string {
  if (!isSealed(stored)) return stored;
  const plain = box.open(stored);
  if (plain === null) throw new Error("A node's token cannot be opened with this data dir's secret.key.");
  return plain;
}

/** Seals node tokens stored in the clear by earlier versions; run at start. Returns how many. */
export async function sealPlaintextNodeTokens(db: Db, box: SecretBox): Promise<number> {
  const plain = (await nodes.tokens(db)).filter((row) => !isSealed(row.daemon_token));
  for (const row of plain) await nodes.replaceToken(db, row.id, row.daemon_token, box.seal(row.daemon_token));
  return plain.length;
}

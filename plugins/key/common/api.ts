// The shapes of the key API (plugins/key/server) as the client reads them: never a key's hash,
// and its secret only in the answer that created it.

/** A key as `:key ls` lists it. */
export interface PublicKey {
  name: string;
  /** The first characters of the key (`sk-sc-AbCdEf`), to tell keys apart. */
  prefix: string;
  role: string;
  stores: string;
  model: string;
  no_log: boolean;
  expires_at: number | null;
  created_at: number;
  last_used_at: number | null;
  /** This month's tokens and fees (dollars) of the key's calls, from the usage ledger. */
  month_tokens: number;
  month_fees: number;
  /** The owner's username: in root's list of every key. */
  owner?: string;
}

/** POST /api/key/add: the new key, shown once. */
export interface CreatedKey extends PublicKey {
  key: string;
}

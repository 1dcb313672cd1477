import type { PoolClient } from 'pg';
import { refuseForeignPostgresSchema } from './refuse-foreign-postgres-schema.js';

/**
 * The PostgreSQL ledger's migrations, versioned in the package like SQLite's (schema.ts): each
 * takes a database from the version before it to its own; `tally_schema` holds the version.
 * Columns mirror the SQLite ledger's so `tally ledger copy` moves rows unchanged: JSON stays
 * text (byte for byte what was written; queries cast it to jsonb), times stay ISO text.
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  // 1: the tables, their indexes, and append-only enforced by the database itself. A purge lifts
  // it for its own transaction only (SET LOCAL tally.purging), never for another connection.
  [
    `CREATE TABLE IF NOT EXISTS runs (
       id TEXT PRIMARY KEY,
       agent TEXT NOT NULL,
       task TEXT NOT NULL,
       started_at TEXT NOT NULL,
       meta TEXT NOT NULL DEFAULT '{}'
     )`,
    `CREATE TABLE IF NOT EXISTS entries (
       run_id TEXT NOT NULL,
       seq INTEGER NOT NULL,
       ts TEXT NOT NULL,
       kind TEXT NOT NULL,
       name TEXT,
       outcome TEXT,
       data TEXT NOT NULL,
       PRIMARY KEY (run_id, seq)
     )`,
    'CREATE INDEX IF NOT EXISTS entries_run_kind ON entries (run_id, kind)',
    'CREATE INDEX IF NOT EXISTS entries_kind_outcome_ts ON entries (kind, outcome, ts, name)',
    'CREATE INDEX IF NOT EXISTS runs_started_at ON runs (started_at)',
    `CREATE OR REPLACE FUNCTION tally_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'DELETE' AND current_setting('tally.purging', true) = 'on' THEN RETURN OLD; END IF;
       RAISE EXCEPTION 'ledger % are append-only', TG_TABLE_NAME;
     END $$`,
    `CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries
       FOR EACH ROW EXECUTE FUNCTION tally_append_only()`,
    `CREATE TRIGGER runs_append_only BEFORE UPDATE OR DELETE ON runs
       FOR EACH ROW EXECUTE FUNCTION tally_append_only()`,
  ],
  // 2: a group commit in one round trip. The batch's runs, then a per-run transaction lock
  // (taken in id order: two writers of the same runs never deadlock), then its entries numbered
  // after each run's last. In READ COMMITTED each statement of a function sees what was committed
  // when it starts, so the numbering, coming after the locks, sees every earlier writer's rows.
  // Called as one statement, it is one transaction: all of the batch or nothing.
  [
    `CREATE OR REPLACE FUNCTION tally_append(
       run_ids text[], agents text[], tasks text[], started text[], metas text[],
       entry_runs text[], stamps text[], kinds text[], names text[], outcomes text[], datas text[]
     ) RETURNS void LANGUAGE plpgsql AS $$
     DECLARE
       locked text;
     BEGIN
       INSERT INTO runs (id, agent, task, started_at, meta)
         SELECT * FROM unnest(run_ids, agents, tasks, started, metas) ON CONFLICT (id) DO NOTHING;
       FOR locked IN SELECT DISTINCT r FROM unnest(entry_runs) AS r ORDER BY r LOOP
         PERFORM pg_advisory_xact_lock(hashtextextended(locked, 0));
       END LOOP;
       INSERT INTO entries (run_id, seq, ts, kind, name, outcome, data)
         SELECT b.run_id,
                COALESCE((SELECT MAX(e.seq) FROM entries e WHERE e.run_id = b.run_id), 0)
                  + row_number() OVER (PARTITION BY b.run_id ORDER BY b.ord),
                b.ts, b.kind, b.name, b.outcome, b.data
           FROM unnest(entry_runs, stamps, kinds, names, outcomes, datas)
                WITH ORDINALITY AS b(run_id, ts, kind, name, outcome, data, ord);
     END $$`,
  ],
  // 3: a group commit that is written once however often it is sent. A client that loses the
  // connection after the server committed (the answer never arrived) sends the same batch again,
  // with the same id: `tally_batches` remembers the ids committed, so the second call adds
  // nothing. A retry that races the first (still running) waits on the id's row and then skips.
  // Ids older than a week are pruned now and then (a retry comes within the busy limit, or
  // when the server is back). `tally_append` stays for a version-2 Tally still running.
  [
    `CREATE TABLE IF NOT EXISTS tally_batches (
       id TEXT PRIMARY KEY,
       at TIMESTAMPTZ NOT NULL DEFAULT now()
     )`,
    'CREATE INDEX IF NOT EXISTS tally_batches_at ON tally_batches (at)',
    `CREATE OR REPLACE FUNCTION tally_append_once(
       batch text, run_ids text[], agents text[], tasks text[], started text[], metas text[],
       entry_runs text[], stamps text[], kinds text[], names text[], outcomes text[], datas text[]
     ) RETURNS boolean LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO tally_batches (id) VALUES (batch) ON CONFLICT (id) DO NOTHING;
       IF NOT FOUND THEN RETURN false; END IF;
       IF random() < 0.01 THEN DELETE FROM tally_batches WHERE at < now() - interval '7 days'; END IF;
       PERFORM tally_append(run_ids, agents, tasks, started, metas,
                            entry_runs, stamps, kinds, names, outcomes, datas);
       RETURN true;
     END $$`,
  ],
];

export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** The advisory lock key that serializes migrations across processes ("tally" in ASCII). */
const MIGRATION_LOCK = 0x74616c6c79;

/**
 * The version a database is at, changing nothing (read-only commands: no DDL, no migration, no
 * CREATE right needed). 0 where Tally never wrote (no `tally_schema`): an empty ledger.
 */
export async function readPostgresSchemaVersion(client: PoolClient): Promise<number> {
  const table = await client.query<{ name: string | null }>(
    "SELECT to_regclass('tally_schema')::text AS name",
  );
  if (!table.rows[0]?.name) return 0;
  const found = await client.query<{ version: number }>('SELECT version FROM tally_schema');
  return Number(found.rows[0]?.version ?? 0);
}

/**
 * Brings the database to POSTGRES_SCHEMA_VERSION: the migrations it lacks, in order, in one
 * transaction under an advisory lock, so several processes opening a fresh database at once
 * migrate it exactly once. Returns the version found (higher than ours: a newer Tally wrote it).
 */
export async function applyPostgresSchema(client: PoolClient, path: string): Promise<number> {
  // Up to date (the usual open): no DDL, so a user with INSERT but no CREATE right records runs.
  const current = await readPostgresSchemaVersion(client);
  if (current >= POSTGRES_SCHEMA_VERSION) return current;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await refuseForeignPostgresSchema(client, path);
    await client.query('CREATE TABLE IF NOT EXISTS tally_schema (version INTEGER NOT NULL)');
    const found = await client.query<{ version: number }>('SELECT version FROM tally_schema');
    const at = found.rows[0]?.version ?? 0;
    if (at < POSTGRES_SCHEMA_VERSION) {
      for (const statement of MIGRATIONS.slice(at).flat()) await client.query(statement);
      if (found.rows.length === 0)
        await client.query('INSERT INTO tally_schema (version) VALUES ($1)', [POSTGRES_SCHEMA_VERSION]);
      else await client.query('UPDATE tally_schema SET version = $1', [POSTGRES_SCHEMA_VERSION]);
    }
    await client.query('COMMIT');
    return at;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

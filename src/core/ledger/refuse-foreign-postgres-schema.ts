import type { PoolClient } from 'pg';
import { LedgerError } from '../errors.js';

/** Tally's own tables: `tally_schema` (its version), or `runs` with `entries` (as SQLite's check). */
function isTallySchema(tables: string[]): boolean {
  return tables.includes('tally_schema') || (tables.includes('runs') && tables.includes('entries'));
}

/**
 * Refuses a database whose schema (the one Tally's tables would be created in, the first of
 * the search path) holds tables and none of Tally's: a `--ledger postgres://…` naming an app's
 * database would otherwise get `runs`, `entries` and `tally_schema` added among its tables.
 * `path` is the URL as printed (no password). Runs before anything is created; the caller holds
 * the migration lock, so no other Tally creates its tables in between.
 */
export async function refuseForeignPostgresSchema(client: PoolClient, path: string): Promise<void> {
  const found = await client.query<{ schema: string | null; tables: string[] }>(
    `SELECT current_schema() AS schema,
            array(SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY 1) AS tables`,
  );
  const { schema, tables } = found.rows[0] ?? { schema: null, tables: [] };
  if (tables.length === 0 || isTallySchema(tables)) return;
  throw new LedgerError(
    'LEDGER_UNAVAILABLE',
    `${path} is not a Tally ledger: its schema "${schema ?? 'public'}" holds another program's tables (${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', …' : ''}). Tally changed nothing in it. Pass --ledger with a database of its own (createdb tally_ledger, then postgres://…/tally_ledger), or a ledger file such as .tally/ledger.db.`,
    { path },
  );
}

import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type Ledger, openLedger } from '../../src/core/ledger/ledger.js';
import { openSqlite } from '../../src/core/sqlite/open-sqlite.js';
import { tempDir } from '../helpers.js';
import { type PostgresServer, postgresUnavailable, startPostgres } from './postgres-server.js';

/**
 * The ledger backends a parameterised suite runs against: SQLite (a temp file) and PostgreSQL
 * (a real server this file starts, a fresh database per ledger). Use with `describe.each`.
 */
export interface LedgerBackend {
  name: 'sqlite' | 'postgres';
  /** Why this backend's tests are skipped here, if they are. */
  skip: string | undefined;
  /** Where a fresh ledger lives: a file path or a postgres:// URL. */
  target(): string;
  open(target?: string): Promise<Ledger>;
  /** Raw SQL straight to the store, bypassing Tally (rows for a SELECT). */
  raw(target: string, sql: string): Promise<Record<string, unknown>[]>;
}

let server: PostgresServer | undefined;
let databases = 0;

/** Starts the PostgreSQL server for this test file (when the binaries are there) and stops it after. */
export function useLedgerBackends(): LedgerBackend[] {
  const skip = postgresUnavailable();
  if (skip) process.stderr.write(`PostgreSQL ledger tests skipped: ${skip}\n`);
  beforeAll(async () => {
    if (!skip) server = await startPostgres();
  }, 60_000);
  afterAll(() => {
    server?.stop();
    server = undefined;
  });
  return [
    {
      name: 'sqlite',
      skip: undefined,
      target: () => join(tempDir(), '.tally', 'ledger.db'),
      async open(target) {
        return openLedger(target ?? this.target());
      },
      async raw(target, sql) {
        const database = openSqlite(target);
        try {
          const statement = database.prepare(sql);
          if (/^\s*select/i.test(sql)) return statement.all() as Record<string, unknown>[];
          statement.run();
          return [];
        } finally {
          database.close();
        }
      },
    },
    {
      name: 'postgres',
      skip,
      target: () => {
        if (!server) throw new Error('the PostgreSQL test server is not running');
        databases += 1;
        return server.createDatabase(`ledger_${process.pid}_${databases}`);
      },
      async open(target) {
        return openLedger(target ?? this.target());
      },
      async raw(target, sql) {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: target });
        await client.connect();
        try {
          return (await client.query(sql)).rows as Record<string, unknown>[];
        } finally {
          await client.end();
        }
      },
    },
  ];
}

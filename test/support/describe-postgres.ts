import { afterAll, beforeAll, describe } from 'vitest';
import { type PostgresServer, postgresUnavailable, startPostgres } from './postgres-server.js';

/**
 * A `describe` block whose tests share one real PostgreSQL server, started before them and
 * stopped after; skipped, saying why on stderr, where no server can run here. `body` gets the
 * server (usable inside tests and hooks, once it has started).
 */
export function describePostgres(
  name: string,
  body: (server: PostgresServer) => void,
  settings: { password?: string } = {},
): void {
  const skip = postgresUnavailable();
  if (skip) process.stderr.write(`PostgreSQL tests skipped (${name}): ${skip}\n`);
  (skip ? describe.skip : describe)(name, () => {
    const held: { server?: PostgresServer } = {};
    const started = () => {
      if (!held.server)
        throw new Error('the PostgreSQL server is used before it started (in a test or hook only)');
      return held.server;
    };
    beforeAll(async () => {
      held.server = await startPostgres(settings);
    }, 60_000);
    afterAll(() => held.server?.stop());
    body({
      createDatabase: (database) => started().createDatabase(database),
      halt: () => started().halt(),
      resume: () => started().resume(),
      stop: () => started().stop(),
    });
  });
}

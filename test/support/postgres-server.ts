import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// No vitest import here: the PostgreSQL ledger bench starts its server with this module too.

/**
 * A real PostgreSQL server for the tests of record: initdb + pg_ctl into a temp dir owned by
 * the `postgres` user (initdb refuses to run as root), trust auth, 127.0.0.1 only, a free port.
 * Started once per test file (about 2 s), stopped with `pg_ctl stop -m immediate` and removed.
 * With `password`, connections over TCP must give it (scram-sha-256): a wrong one is refused.
 */
export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/DB (with `:PASSWORD` where the server has one) for a fresh database `name`. */
  createDatabase(name: string): string;
  /** Stops the server (an outage) and starts it again on the same port, data kept. */
  halt(): void;
  resume(): void;
  stop(): void;
}

/** The newest installed PostgreSQL's bin folder, or undefined when none is installed. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** Why the PostgreSQL tests are skipped here, or undefined when they can run. */
export function postgresUnavailable(): string | undefined {
  if (!postgresBin())
    return 'PostgreSQL binaries are not installed (/usr/lib/postgresql/*/bin/initdb); .ci/run installs them';
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) return 'there is no `postgres` user to run initdb as';
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function asPostgres(command: string, args: string[]): string {
  const runAs =
    process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return execFileSync(runAs[0] as string, runAs[1] as string[], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function startPostgres(settings: { password?: string } = {}): Promise<PostgresServer> {
  const bin = postgresBin();
  if (!bin) throw new Error(postgresUnavailable());
  const dir = mkdtempSync(join(tmpdir(), 'tally-pg-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const auth = ['-A', 'trust'];
  if (settings.password !== undefined) {
    // The socket in the temp dir stays trusted (createdb below); TCP asks for the password.
    const passwordFile = join(dir, 'pwfile');
    writeFileSync(passwordFile, `${settings.password}\n`, { mode: 0o644 });
    auth.splice(0, 2, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${passwordFile}`);
  }
  asPostgres(join(bin, 'initdb'), ['-D', data, ...auth, '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  rmSync(join(dir, 'pwfile'), { force: true });
  const port = await freePort();
  // fsync off: a test server's durability is not under test; the socket lives in the temp dir.
  asPostgres(join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=100`,
    'start',
  ]);
  let stopped = false;
  const options = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=100`;
  return {
    halt() {
      asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    resume() {
      asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-o', options, 'start']);
    },
    createDatabase(name) {
      asPostgres(join(bin, 'createdb'), ['-h', dir, '-p', String(port), '-U', 'postgres', name]);
      const credential = settings.password === undefined ? '' : `:${encodeURIComponent(settings.password)}`;
      return `postgres://postgres${credential}@127.0.0.1:${port}/${name}`;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

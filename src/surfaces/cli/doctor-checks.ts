import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ledgerPathProblem } from '../../core/ledger/check-ledger-path.js';
import { isPostgresUrl } from '../../core/ledger/postgres-url.js';
import { shownUrl } from '../../core/shown-url.js';
import { openSqlite, sqliteDriver } from '../../core/sqlite/open-sqlite.js';
import {
  INSTALL_CHROMIUM,
  INSTALL_PLAYWRIGHT,
  importPlaywright,
} from '../../packs/browser/browser-requirements.js';
import { chromiumPath } from '../../packs/browser/chromium-settings.js';
import { DEFAULT_TRACES_ENDPOINT, telemetryEnabled, tracesEndpoint } from '../telemetry/telemetry-enabled.js';

/** One finding of `tally doctor`. A `required` piece missing means Tally cannot run (exit 3). */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  required: boolean;
  detail: string;
  /** What to do, when not ok. */
  fix?: string;
}

/** The package's own folder: three levels above this module, in src/ and dist/ alike. */
const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function checkNode(version = process.versions.node): DoctorCheck {
  const engines = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')).engines?.node ?? '>=20';
  const needed = Number(/\d+/.exec(engines)?.[0] ?? 20);
  const major = Number(version.split('.')[0]);
  return {
    name: 'Node.js',
    ok: major >= needed,
    required: true,
    detail: `${version} (Tally needs ${engines})`,
    ...(major >= needed
      ? {}
      : { fix: `Install Node.js ${needed} or newer (nodejs.org, or nvm install ${needed}).` }),
  };
}

export async function checkSqlite(): Promise<DoctorCheck> {
  // Through the seam the ledger uses: node:sqlite where Node has it unflagged, else better-sqlite3.
  let name = 'SQLite';
  try {
    const driver = sqliteDriver();
    name = `SQLite (${driver})`;
    const database = openSqlite(':memory:');
    const version = (database.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    database.close();
    return {
      name,
      ok: true,
      required: true,
      detail: `${driver.startsWith('node') ? 'built into Node' : 'the native module loads'}; SQLite ${version}`,
    };
  } catch (error) {
    return {
      name,
      ok: false,
      required: true,
      detail: `no SQLite driver loads: ${String((error as Error)?.message ?? error).split('\n')[0]}`,
      fix: 'On Node 22.13+ or 24 Tally uses the built-in node:sqlite. On Node 20 rebuild the native module: `npm rebuild better-sqlite3` (a C++ toolchain is needed where no prebuilt binary fits: apt-get install build-essential python3).',
    };
  }
}

export async function checkPlaywright(): Promise<DoctorCheck> {
  const playwright = await importPlaywright();
  return {
    name: 'playwright-core',
    ok: Boolean(playwright),
    required: false,
    detail: playwright
      ? 'installed (tally capture, --login browser:SCRIPT, browser_console)'
      : 'not installed: tally capture, --login browser:SCRIPT and browser_console cannot run',
    ...(playwright ? {} : { fix: INSTALL_PLAYWRIGHT }),
  };
}

export function checkChromium(env: NodeJS.ProcessEnv = process.env): DoctorCheck {
  const path = chromiumPath(env);
  const ok = existsSync(path);
  return {
    name: 'Chromium',
    ok,
    required: false,
    detail: ok
      ? path
      : `none at ${path}: tally capture, --login browser:SCRIPT and browser_console cannot run`,
    ...(ok ? {} : { fix: INSTALL_CHROMIUM }),
  };
}

/** The nearest folder that exists at or above `path`. */
function nearestExisting(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

export async function checkLedger(path: string): Promise<DoctorCheck> {
  const name = 'Ledger';
  if (isPostgresUrl(path)) {
    // A team's database: connecting (and bringing its schema up to date) is the check.
    try {
      const { openLedger } = await import('../../core/ledger/ledger.js');
      const ledger = await openLedger(path, { readonly: true });
      await ledger.close();
      return { name, ok: true, required: true, detail: `${ledger.path} answers` };
    } catch (error) {
      return {
        name,
        ok: false,
        required: true,
        detail: String((error as Error)?.message ?? error),
        fix: 'Start the PostgreSQL server or fix the URL in --ledger / TALLY_LEDGER.',
      };
    }
  }
  // A symlink loop or a dangling symlink does not "exist", yet no run can create a ledger there.
  const problem = ledgerPathProblem(path);
  if (problem)
    return {
      name,
      ok: false,
      required: true,
      detail: `The ledger path ${path} cannot be used: ${problem}.`,
      fix: 'Pass --ledger PATH or set TALLY_LEDGER to a ledger file, such as .tally/ledger.db, or to a path where a new one can be made.',
    };
  if (!existsSync(path)) {
    const folder = nearestExisting(dirname(path));
    try {
      accessSync(folder, constants.W_OK);
      return {
        name,
        ok: true,
        required: true,
        detail: `${path} (not created yet; the first run creates it)`,
      };
    } catch {
      return {
        name,
        ok: false,
        required: true,
        detail: `${path} cannot be created: ${folder} is not writable`,
        fix: 'Pass --ledger PATH or set TALLY_LEDGER to a file in a writable folder.',
      };
    }
  }
  try {
    const { Ledger } = await import('../../core/ledger/ledger.js');
    Ledger.open(path, { readonly: true }).close();
    return { name, ok: true, required: true, detail: `${path} opens` };
  } catch (error) {
    return {
      name,
      ok: false,
      required: true,
      detail: String((error as Error)?.message ?? error),
      fix: 'Pass --ledger PATH or set TALLY_LEDGER to a Tally ledger, or move that file away.',
    };
  }
}

/** Whether something accepts TCP connections at the URL's host and port within `timeoutMs`. */
function reachable(url: URL, timeoutMs: number): Promise<boolean> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function checkTelemetry(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck> {
  const name = 'OpenTelemetry';
  if (!telemetryEnabled(env))
    return { name, ok: true, required: false, detail: 'off (no OTEL_* variable asks for export)' };
  const endpoint = tracesEndpoint(env) ?? DEFAULT_TRACES_ENDPOINT;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return {
      name,
      ok: false,
      required: false,
      detail: `the traces endpoint "${shownUrl(endpoint)}" is not a URL`,
      fix: 'Set OTEL_EXPORTER_OTLP_ENDPOINT to the collector, e.g. http://localhost:4318.',
    };
  }
  const up = await reachable(url, 1000);
  return {
    name,
    ok: up,
    required: false,
    detail: up
      ? `exporting to ${shownUrl(endpoint)} (a collector answers there)`
      : `exporting to ${shownUrl(endpoint)}, but nothing answers there: every command reports the export failed`,
    ...(up
      ? {}
      : { fix: 'Start the collector, fix OTEL_EXPORTER_OTLP_ENDPOINT, or set OTEL_TRACES_EXPORTER=none.' }),
  };
}

export function checkPlugin(packageDir = PACKAGE_DIR): DoctorCheck {
  const name = 'Claude Code plugin';
  const plugin = join(packageDir, 'plugin');
  const missing = ['.claude-plugin/plugin.json', 'hooks/hooks.json', 'bin/tally-hook.js'].filter(
    (file) => !existsSync(join(plugin, file)),
  );
  const hookBuild = ['dist/fast/cli/hook.cjs', 'dist/surfaces/cli/hook-entry.js'].some((file) =>
    existsSync(join(packageDir, file)),
  );
  if (missing.length > 0 || !hookBuild)
    return {
      name,
      ok: false,
      required: false,
      detail:
        missing.length > 0 ? `${plugin} lacks ${missing.join(', ')}` : `no hook build in ${packageDir}/dist`,
      fix: 'Reinstall the package (npm i tally-harness); in a clone, run `npm run build`.',
    };
  try {
    JSON.parse(readFileSync(join(plugin, 'hooks', 'hooks.json'), 'utf8'));
    JSON.parse(readFileSync(join(plugin, '.claude-plugin', 'plugin.json'), 'utf8'));
  } catch (error) {
    return {
      name,
      ok: false,
      required: false,
      detail: `its manifest does not parse: ${(error as Error).message}`,
      fix: 'Reinstall the package (npm i tally-harness).',
    };
  }
  return { name, ok: true, required: false, detail: `ready: claude --plugin-dir ${plugin}` };
}

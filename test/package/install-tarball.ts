import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './readme-project.js';

const exec = promisify(execFile);

export const NPM_ENV = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/** `npm pack` of this checkout's dist/ as it is (--ignore-scripts: no rebuild under other tests' feet). */
export async function packTarball(destination: string): Promise<{ tarball: string; paths: string[] }> {
  const packed = await exec(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', destination],
    {
      cwd: REPO,
      env: NPM_ENV,
    },
  );
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error('npm pack reported nothing');
  return { tarball: join(destination, info.filename), paths: info.files.map((file) => file.path) };
}

/**
 * better-sqlite3's native module as prebuild-install looks for it locally, made from this
 * checkout's own build (same Node ABI, platform and arch): the install then neither downloads
 * a prebuild nor compiles one (over 14 min on a loaded 2-core machine). Undefined where this
 * checkout has no build of it; the install then does what a user's would.
 */
async function localPrebuilds(project: string): Promise<Record<string, string>> {
  const module = join(REPO, 'node_modules', 'better-sqlite3');
  const binary = join(module, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binary)) return {};
  const { version } = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')) as { version: string };
  // Inside the project, so it goes when the project does.
  const folder = join(project, '.prebuilds');
  mkdirSync(folder, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await exec('tar', ['czf', join(folder, name), 'build/Release/better_sqlite3.node'], { cwd: module });
  return { npm_config_better_sqlite3_local_prebuilds: folder };
}

/** Whether the npm registry answers at all. */
async function registryUnreachable(): Promise<string | undefined> {
  try {
    await exec('npm', ['ping'], { env: NPM_ENV, timeout: 30_000 });
    return undefined;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return error.message.split('\n').slice(0, 3).join(' ');
  }
}

export interface Installed {
  /** `offline`: from the npm cache alone; `prefer-offline`: the cache lacked something (named). */
  how: 'offline' | 'prefer-offline';
  /** What the cache lacked, when it had to ask the registry. */
  notCached?: string;
  /** Why nothing could be installed (registry unreachable and the cache short): tests skip with it. */
  skipped?: string;
}

/**
 * Installs the tarball into `project` (an `npm init -y` folder) the way a user would, without
 * the network when the npm cache holds every dependency (`--offline`). Where it does not (a
 * dependency added since the cache was filled), `--prefer-offline` asks the registry for just
 * that, and says so; only when the registry is unreachable too is the install skipped.
 */
export async function installTarball(project: string, tarball: string): Promise<Installed> {
  await exec('npm', ['init', '-y'], { cwd: project, env: NPM_ENV });
  const env = { ...NPM_ENV, ...(await localPrebuilds(project)) };
  const install = (mode: '--offline' | '--prefer-offline') =>
    exec('npm', ['install', mode, '--no-audit', '--no-fund', tarball], {
      cwd: project,
      env,
      // Without a local prebuild, better-sqlite3 compiles from source.
      timeout: 840_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  try {
    await install('--offline');
    return { how: 'offline' };
  } catch (error) {
    const output = `${(error as { stderr?: string }).stderr ?? ''}`;
    const notCached = /request to (\S+) failed: cache mode is 'only-if-cached'/.exec(output)?.[1];
    if (!notCached) throw error;
    try {
      await install('--prefer-offline');
      return { how: 'prefer-offline', notCached };
    } catch (online) {
      const unreachable = await registryUnreachable();
      if (unreachable === undefined) throw online;
      return {
        how: 'prefer-offline',
        notCached,
        skipped: `the npm cache lacks ${notCached} and the registry is unreachable (${unreachable})`,
      };
    }
  }
}

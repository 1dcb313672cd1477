// `npm run demo` and `npm pack` (through `prepare`) build only when dist/ is older than its
// inputs: right after `npm ci` built it, a second 55-75 s tsc run bought nothing.
// `node scripts/build-if-stale.mjs` builds when stale; `--stamp` (the last step of
// `npm run build`) records what the build saw. `npm run build` itself always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'dist', '.build-stamp.json');
const INPUTS = [
  'src',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/bundle-fast-paths.mjs',
  'package.json',
];
const OUTPUTS = ['dist/surfaces/cli/main.js', 'dist/index.js', 'dist/index.d.ts'];

/** The newest modification time (ms) of a file, or of any file under a folder. */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let most = stat.mtimeMs; // a deleted file changes only its folder
  for (const entry of readdirSync(path)) most = Math.max(most, newest(join(path, entry)));
  return most;
}

const inputsNewest = () => Math.max(...INPUTS.map((input) => newest(join(root, input))));

if (process.argv.includes('--stamp')) {
  writeFileSync(stampFile, `${JSON.stringify({ inputsNewest: inputsNewest() })}\n`);
} else {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    stamp = undefined;
  }
  const fresh =
    typeof stamp?.inputsNewest === 'number' &&
    stamp.inputsNewest >= inputsNewest() &&
    OUTPUTS.every((output) => existsSync(join(root, output)));
  if (fresh)
    process.stderr.write('dist/ is up to date with src/: not rebuilding (npm run build forces it).\n');
  else {
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exitCode = built.status ?? 1;
  }
}

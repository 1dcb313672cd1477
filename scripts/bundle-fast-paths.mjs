// Part of `npm run build`: bundles the two start-up-critical paths — the Claude Code hooks
// (run on every tool call) and `records query` (the scout's many probes) — into one CommonJS
// file each. One file instead of ~20 ES modules, and no commander, saves ~15-20 ms a call.
// `bin/` falls back to the ES modules in dist/ when these files are missing.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Three levels below the package root, like dist/surfaces/cli/: modules that find package.json
// or the demo files relative to themselves keep working from the bundle.
const outdir = join(root, 'dist', 'fast', 'cli');
rmSync(join(root, 'dist', 'fast'), { recursive: true, force: true });

await build({
  entryPoints: {
    hook: join(root, 'dist', 'surfaces', 'cli', 'hook-entry.js'),
    'records-query': join(root, 'dist', 'surfaces', 'cli', 'records-query-fast.js'),
  },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Dependencies stay in node_modules (better-sqlite3 is native; yaml loads only when needed).
  packages: 'external',
  // CommonJS has no import.meta: modules that resolve files next to themselves get this file's URL.
  banner: { js: 'const __fastPathUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__fastPathUrl' },
  logLevel: 'warning',
});

// Part of `npm run build`: bundles the start-up-critical paths — the Claude Code hooks
// (run on every tool call), `records query` (the scout's many probes) and `tally fish` — into
// one CommonJS file each. One file instead of ~20 ES modules, and no commander, saves ~15-20 ms a call.
// `bin/` falls back to the ES modules in dist/ when these files are missing.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { asciiBundle } from './ascii-bundle.mjs';
import { BANNER, routeDynamicImports } from './route-dynamic-imports.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Three levels below the package root, like dist/surfaces/cli/: modules that find package.json
// or the demo files relative to themselves keep working from the bundle.
const outdir = join(root, 'dist', 'fast', 'cli');
rmSync(join(root, 'dist', 'fast'), { recursive: true, force: true });

// What every fast path shares: one CommonJS file for Node 20+, with import.meta.url working.
const common = {
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // CommonJS has no import.meta: modules that resolve files next to themselves get this file's URL.
  // `__import` is every `import()` of the bundle (see route-dynamic-imports.mjs).
  banner: { js: BANNER },
  define: { 'import.meta.url': '__fastPathUrl' },
  logLevel: 'warning',
};

// better-sqlite3's version where it is installed (see betterSqlite3Version below).
const bundledVersion = betterSqlite3Version();

// better-sqlite3's JavaScript (~27 KB, 12 files) rides in a bundle behind a function called only
// when it is the SQLite driver (Node 20, early 22): resolving, reading and compiling its files
// without the code cache cost ~10 ms of every start (issue 22). dist/'s
// core/sqlite/bundled-better-sqlite3.js says "none"; in a bundle it carries the copy and the
// version it came from, and better-sqlite3-driver.js uses it only where the installed package is
// that version (the addon, native, always comes from node_modules).
function bundleBetterSqlite3(builder) {
  builder.onLoad({ filter: /[\\/]core[\\/]sqlite[\\/]bundled-better-sqlite3\.js$/ }, () => ({
    contents: bundledVersion
      ? `export const bundledBetterSqlite3 = { version: ${JSON.stringify(bundledVersion)}, load: () => require('better-sqlite3') };\n`
      : 'export const bundledBetterSqlite3 = undefined;\n',
    loader: 'js',
    resolveDir: join(root, 'dist', 'core', 'sqlite'),
  }));
}

await build({
  entryPoints: { hook: join(root, 'dist', 'surfaces', 'cli', 'hook-entry.js') },
  ...common,
  // Dependencies stay in node_modules (better-sqlite3 is native; yaml loads only when needed).
  packages: 'external',
});

// records query: packages stay in node_modules (yaml loads only when needed) but better-sqlite3's
// JavaScript, which every query runs on Node 20 and early 22.
await build({
  entryPoints: { 'records-query': join(root, 'dist', 'surfaces', 'cli', 'records-query-fast.js') },
  ...common,
  plugins: [
    {
      name: 'better-sqlite3-bundled',
      setup(builder) {
        bundleBetterSqlite3(builder);
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path === 'better-sqlite3' && bundledVersion !== undefined
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ],
});

// dist/fast/cli/cli.cjs — `tally fish REQUEST` (issue 22): the whole CLI entry with the fish command and zod in one file,
// so a data run pays for one compiled file instead of ~250 ES modules (~30% of its CPU for 8
// entities). Every other command stays an import of its ES module in dist/, loaded only when
// run; `bin/tally.js` sends only `fish REQUEST` here (not `fish cleanup` / `fish recipes`, whose
// modules would otherwise hold second copies of the error classes the bundle checks against).
// Packages other than zod stay in node_modules: the AI SDK, swagger-parser and yaml load lazily.
// The read commands a user runs most against a big ledger (issue 21: `runs`, `runs show`,
// `report` within ~0.3 s) ride in the same file: the ledger's entry schemas need zod, whose ES
// modules cost ~130 ms to load here, bundled a fraction of that. bin/tally.js sends them here.
const BUNDLED_COMMANDS = new Set([
  './fish-command.js',
  './runs-command.js',
  './runs-show-command.js',
  './report-command.js',
  './stats-command.js',
]);

await build({
  entryPoints: { cli: join(root, 'dist', 'surfaces', 'cli', 'main.js') },
  ...common,
  plugins: [
    {
      name: 'cli-commands-only',
      setup(builder) {
        // main.js imports command modules lazily, and so do the built-in agent surfaces it lists
        // (agent-surface-commands.js: scout, code): those stay ES modules in dist/, not in this file.
        builder.onResolve({ filter: /^\.\/[a-z-]+-command\.js$/ }, (args) =>
          BUNDLED_COMMANDS.has(args.path) ||
          !(
            args.importer.endsWith(join('surfaces', 'cli', 'main.js')) ||
            args.importer.endsWith('agent-surface-commands.js')
          )
            ? undefined
            : { path: `../../surfaces/cli/${args.path.slice(2)}`, external: true },
        );
        // zod re-exports its ~45 locales (`z.locales`, ~400 KB: a third of this file) that Tally
        // never selects; its messages come from the English locale, which zod imports itself.
        // Only English is bundled: V8 parses 30% less on every `tally fish` (issue 22).
        builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
          args.importer.includes(`${sep}node_modules${sep}zod${sep}`)
            ? { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-english-only' }
            : undefined,
        );
        builder.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
          contents: `export { default as en } from ${JSON.stringify(args.path)};`,
          resolveDir: dirname(args.path),
        }));
        // zod's `z.fromJSONSchema` (JSON Schema to zod), which Tally never calls, spreads all of
        // zod's schema and check exports into a local object when zod loads (~0.5 ms of every
        // `tally fish`, issue 22) and is 26 KB of this file: the bundle carries a stub that says so.
        builder.onResolve({ filter: /^\.\/from-json-schema\.js$/ }, (args) =>
          args.importer.includes(`${sep}node_modules${sep}zod${sep}`)
            ? { path: 'from-json-schema', namespace: 'zod-no-from-json-schema' }
            : undefined,
        );
        builder.onLoad({ filter: /.*/, namespace: 'zod-no-from-json-schema' }, () => ({
          contents:
            "export function fromJSONSchema() { throw new Error('z.fromJSONSchema is not part of the tally CLI bundle'); }",
          loader: 'js',
        }));
        // commander's command.js requires node:child_process (with node:net and the streams: ~11 ms
        // here) at the top, for executable subcommands, which Tally does not declare: it gets the
        // module on first use instead (issue 22).
        builder.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
          args.importer.includes(`${sep}node_modules${sep}commander${sep}`)
            ? { path: 'child_process', namespace: 'child-process-on-use' }
            : undefined,
        );
        builder.onLoad({ filter: /.*/, namespace: 'child-process-on-use' }, () => ({
          contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
          loader: 'js',
        }));
        bundleBetterSqlite3(builder);
        // zod, commander and picocolors ride in the bundle (from node_modules, commander cost ~10 ms
        // more and picocolors ~3: the package's resolution, its files compiled without the code
        // cache); other packages stay in node_modules.
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path === 'zod' ||
          args.path.startsWith('zod/') ||
          args.importer.includes('/node_modules/zod/') ||
          args.path === 'commander' ||
          args.path === 'picocolors' ||
          (args.path === 'better-sqlite3' && bundledVersion !== undefined)
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ],
});

/**
 * The installed better-sqlite3's version: the bundled copy is used only beside that same version.
 * Undefined where it is not installed (an optional dependency whose native build failed, or a
 * Node with node:sqlite): the bundle then carries no copy and the build goes on.
 */
function betterSqlite3Version() {
  try {
    const require = createRequire(import.meta.url);
    return JSON.parse(readFileSync(require.resolve('better-sqlite3/package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

for (const name of readdirSync(outdir)) {
  await routeDynamicImports(join(outdir, name));
  await asciiBundle(join(outdir, name));
}

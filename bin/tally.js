#!/usr/bin/env node
// Launcher (CommonJS: bin/package.json): the CLI lives in dist/, built by `npm ci` through the
// prepare script. Hooks and `records query` run from one-file bundles without commander when
// their arguments are plain, and `fish REQUEST` and the read commands from a bundle of the CLI
// entry with those commands (dist/fast/cli, see scripts/bundle-fast-paths.mjs); everything else,
// and anything those paths do not recognise, goes to the full CLI. Compiled code of the bundles
// is kept between runs (see compiled-code-cache.js).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const argv = process.argv;

/**
 * Loads a one-file bundle; `v8Flags`, the V8 flags set for it, keys its compiled-code cache;
 * `coverage`, how much of it this run compiles (see compiled-code-cache.js).
 */
function fast(name, v8Flags = '', coverage = 1) {
  const file = join(dist, 'fast', 'cli', `${name}.cjs`);
  if (!existsSync(file)) return undefined;
  return require('./compiled-code-cache.js').requireBundle(file, v8Flags, coverage);
}

function finish(promise) {
  promise.then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`tally: unexpected error: ${error?.stack ? error.stack : error}\n`);
      process.exitCode = 1;
    },
  );
}

function fastPath() {
  const [command, sub, ...rest] = argv.slice(2);
  // `tally hook NAME`: the hook entry takes the name where tally-hook.js has it.
  if (command === 'hook' && sub !== undefined && !sub.startsWith('-') && !rest.some(isHelp)) {
    const hook = fast('hook');
    // A hook never fails its host: even a fault of ours releases (exit 0), as tally-hook.js does.
    if (hook)
      return hook.runHookEntry([argv[0], argv[1], sub, ...rest]).catch((error) => {
        process.stderr.write(`tally hook ${sub}: ${error?.message ?? error}; released.\n`);
        return 0;
      });
  }
  // `tally fish REQUEST` and the read commands (`runs`, `runs show`, `report`, `stats`): the CLI
  // entry bundled with those commands (see scripts/bundle-fast-paths.mjs); `fish cleanup` and
  // `fish recipes` run from dist/ like every other command.
  const bundled =
    (command === 'fish' && sub !== 'cleanup' && sub !== 'recipes') ||
    command === 'runs' ||
    command === 'report' ||
    command === 'stats';
  if (bundled) {
    // `tally fish REQUEST` makes hundreds of requests and ledger writes in a second or a few:
    // V8 optimizes only really hot code there (v8-tier-flags.js). Not the read commands: they
    // lost ~10 ms each with the flags and have nothing hot to win it back.
    // `tally fish --help` is not such a run: it keeps the read commands' flags and cache.
    const fishRun = command === 'fish' && sub !== undefined && ![sub, ...rest].some(isHelp);
    const tier = fishRun ? require('./v8-tier-flags.js') : undefined;
    const v8Flags = tier ? tier.raiseTierUpThresholds(tier.FISH_BUILTINS) : '';
    // A fish run compiles the most of the bundle: its code cache replaces one a lighter command wrote.
    const cli = fast('cli', v8Flags, fishRun ? 2 : 1);
    if (cli) return cli.main(argv);
  }
  if (command === 'records' && sub === 'query') {
    const records = fast('records-query');
    const flags = records?.parseRecordsQueryArgs(rest);
    // The launcher's own path: a query that found no resident server starts one through it.
    if (flags) return records.runRecordsQuery(flags, { launcher: __filename });
  }
  return undefined;
}

function isHelp(arg) {
  return arg === '--help' || arg === '-h';
}

let quick;
try {
  quick = process.env.TALLY_FULL_CLI === '1' ? undefined : fastPath();
} catch {
  // A fast-path bundle that cannot load (a partial build) is no reason to fail: the full CLI runs.
  quick = undefined;
}
if (quick) finish(quick);
else {
  const entry = join(dist, 'surfaces', 'cli', 'main.js');
  if (!existsSync(entry)) {
    process.stderr.write(
      'tally: the build output is missing. Run `npm run build` (npm ci runs it for you).\n',
    );
    process.exit(2);
  }
  finish(import(require('node:url').pathToFileURL(entry).href).then(({ main }) => main(argv)));
}

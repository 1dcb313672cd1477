#!/usr/bin/env node
// The plugin's hook launcher (CommonJS: plugin/bin/package.json — Claude Code runs PreToolUse
// on every tool call, and CommonJS starts faster). It finds Tally's package (find-tally.js) and
// runs the one-file hook bundle (dist/fast/cli/hook.cjs) when present, else the ES modules.
// A hook never blocks its host: when no build is found it says so and exits 0.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { findTally } = require('./find-tally.js');

const BUNDLE = join('dist', 'fast', 'cli', 'hook.cjs');
const MODULES = join('dist', 'surfaces', 'cli', 'hook-entry.js');

function released(error) {
  process.stderr.write(`tally hook ${process.argv[2] ?? ''}: ${error?.message ?? error}; released.\n`);
  process.exitCode = 0;
}

function start() {
  const found = findTally(MODULES);
  if (found.dir) {
    if (existsSync(join(found.dir, BUNDLE)))
      return require(join(found.dir, BUNDLE)).runHookEntry(process.argv);
    return import(pathToFileURL(join(found.dir, MODULES)).href).then(({ runHookEntry }) =>
      runHookEntry(process.argv),
    );
  }
  process.stderr.write(
    `tally hook ${process.argv[2] ?? ''}: Tally's build was not found (looked in ${found.looked.join(', ')}); released. Install tally-harness in the project or globally, or set the plugin option tally_dir to its folder.\n`,
  );
  return Promise.resolve(0);
}

try {
  start().then((code) => {
    process.exitCode = code;
  }, released);
} catch (error) {
  released(error);
}

#!/usr/bin/env node
// The hook entry (CommonJS: bin/package.json): `tally-hook <name>` is `tally hook <name>`
// without the CLI's start-up cost — one bundled file (dist/fast/cli/hook.cjs), or the ES
// modules in dist/ when the bundle is missing. A hook never blocks its host: a missing build
// is said on stderr and exits 0.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const bundle = join(__dirname, '..', 'dist', 'fast', 'cli', 'hook.cjs');
const modules = join(__dirname, '..', 'dist', 'surfaces', 'cli', 'hook-entry.js');

function released(error) {
  process.stderr.write(`tally hook: ${error?.message ? error.message : error}; released.\n`);
  process.exitCode = 0;
}

if (existsSync(bundle)) {
  require(bundle)
    .runHookEntry(process.argv)
    .then((code) => {
      process.exitCode = code;
    }, released);
} else if (existsSync(modules)) {
  import(pathToFileURL(modules).href)
    .then(({ runHookEntry }) => runHookEntry(process.argv))
    .then((code) => {
      process.exitCode = code;
    }, released);
} else {
  process.stderr.write('tally hook: the build output is missing; released. Run `npm run build`.\n');
}

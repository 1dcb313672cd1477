#!/usr/bin/env node
// The plugin's hook launcher (CommonJS: plugin/bin/package.json — Claude Code runs PreToolUse
// on every tool call, and CommonJS starts faster). It finds Tally's build: the package this
// plugin ships in (`<package>/plugin/bin` → `<package>/dist`), else the plugin option
// `tally_dir`, else TALLY_PACKAGE_DIR — the one-file hook bundle (dist/fast/cli/hook.cjs) when
// present, else the ES modules. A hook never blocks its host: when no build is found it says
// so and exits 0.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const BUNDLE = join('dist', 'fast', 'cli', 'hook.cjs');
const MODULES = join('dist', 'surfaces', 'cli', 'hook-entry.js');
const dirs = [join(__dirname, '..', '..')];
for (const dir of [process.env.CLAUDE_PLUGIN_OPTION_TALLY_DIR, process.env.TALLY_PACKAGE_DIR])
  if (dir) dirs.push(dir);

function released(error) {
  process.stderr.write(`tally hook ${process.argv[2] ?? ''}: ${error?.message ?? error}; released.\n`);
  process.exitCode = 0;
}

function start() {
  for (const dir of dirs) {
    if (existsSync(join(dir, BUNDLE))) return require(join(dir, BUNDLE)).runHookEntry(process.argv);
    if (existsSync(join(dir, MODULES)))
      return import(pathToFileURL(join(dir, MODULES)).href).then(({ runHookEntry }) =>
        runHookEntry(process.argv),
      );
  }
  process.stderr.write(
    `tally hook ${process.argv[2] ?? ''}: Tally's build was not found (looked in ${dirs.join(', ')}); released. Set the plugin option tally_dir to the folder where the tally package is installed.\n`,
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

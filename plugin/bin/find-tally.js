// Where Tally's package is, for the plugin's launchers — wherever Claude Code put this folder:
// inside the package (`--plugin-dir node_modules/tally-harness/plugin`), or copied alone into
// its plugin cache by `claude plugin install` from a marketplace. First that holds a build:
//   1. the plugin option tally_dir, then TALLY_PACKAGE_DIR (overrides),
//   2. the package this folder ships in (`<package>/plugin/bin` → `<package>`),
//   3. the project's own install: node_modules/tally-harness from the project folder upwards,
//   4. the global install beside the running node (`npm install -g tally-harness`).
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');

const PACKAGE = 'tally-harness';

function isTally(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === PACKAGE;
  } catch {
    return false;
  }
}

function projectInstalls(start) {
  const found = [];
  if (!start) return found;
  let dir = resolve(start);
  for (;;) {
    found.push(join(dir, 'node_modules', PACKAGE));
    const up = dirname(dir);
    if (up === dir) return found;
    dir = up;
  }
}

/** Candidate package folders, in order; `overrides` are taken as given (the user named them). */
function candidates(env = process.env, cwd = process.cwd()) {
  const overrides = [env.CLAUDE_PLUGIN_OPTION_TALLY_DIR, env.TALLY_PACKAGE_DIR].filter(
    (dir) => dir && !/^\$\{[^}]*\}$/.test(dir),
  );
  const bin = dirname(process.execPath);
  return {
    overrides,
    found: [
      join(__dirname, '..', '..'),
      ...projectInstalls(env.CLAUDE_PROJECT_DIR),
      ...projectInstalls(cwd),
      join(bin, '..', 'lib', 'node_modules', PACKAGE),
      join(bin, 'node_modules', PACKAGE),
    ],
  };
}

/** The first package folder holding `file` (relative), or undefined; `looked` lists where it looked. */
function findTally(file, env, cwd) {
  const { overrides, found } = candidates(env, cwd);
  const looked = [];
  for (const dir of [...overrides, ...found]) {
    looked.push(dir);
    if ((overrides.includes(dir) || isTally(dir)) && existsSync(join(dir, file))) return { dir, looked };
  }
  return { looked };
}

module.exports = { findTally };

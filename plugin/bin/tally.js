#!/usr/bin/env node
// The plugin's own `tally` (skills and the scout agent run it as
// `node "${CLAUDE_PLUGIN_ROOT}/bin/tally.js" …`, never `npx tally`, which outside a project
// that has the package would fetch an unrelated public package of that name). It finds Tally's
// package (find-tally.js) and runs its CLI in this process.
'use strict';
const { join } = require('node:path');
const { findTally } = require('./find-tally.js');

const found = findTally(join('bin', 'tally.js'));
if (found.dir) {
  require(join(found.dir, 'bin', 'tally.js'));
} else {
  process.stderr.write(
    `tally: Tally's package was not found (looked in ${found.looked.join(', ')}). Install tally-harness in the project (npm install -D tally-harness) or globally, or set the plugin option tally_dir to its folder.\n`,
  );
  process.exitCode = 2;
}

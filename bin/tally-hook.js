#!/usr/bin/env node
// The hook entry: `tally-hook <name>` is `tally hook <name>` without the CLI's start-up cost.
// A hook never blocks its host: a missing build is said on stderr and exits 0.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/surfaces/cli/hook-entry.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('tally hook: the build output is missing; released. Run `npm run build`.\n');
} else {
  const { runHookEntry } = await import(entry.href);
  process.exitCode = await runHookEntry(process.argv);
}

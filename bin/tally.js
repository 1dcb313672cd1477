#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/ (built by `npm ci` through the prepare script).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/surfaces/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('tally: the build output is missing. Run `npm run build` (npm ci runs it for you).\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);

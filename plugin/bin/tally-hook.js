#!/usr/bin/env node
// The plugin's hook launcher. It finds Tally's build: the package this plugin ships in
// (`<package>/plugin/bin` → `<package>/dist`), else the plugin option `tally_dir`, else
// TALLY_PACKAGE_DIR. A hook never blocks its host: when none is there it says so and exits 0.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ENTRY = join('dist', 'surfaces', 'cli', 'hook-entry.js');
const candidates = [new URL(`../../${ENTRY}`, import.meta.url)];
for (const dir of [process.env.CLAUDE_PLUGIN_OPTION_TALLY_DIR, process.env.TALLY_PACKAGE_DIR])
  if (dir) candidates.push(pathToFileURL(join(dir, ENTRY)));
const entry = candidates.find((candidate) => existsSync(candidate));
if (!entry) {
  process.stderr.write(
    `tally hook ${process.argv[2] ?? ''}: Tally's build was not found (looked in ${candidates.map(String).join(', ')}); released. Set the plugin option tally_dir to the folder where the tally package is installed.\n`,
  );
} else {
  const { runHookEntry } = await import(entry.href);
  process.exitCode = await runHookEntry(process.argv);
}

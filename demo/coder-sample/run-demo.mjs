// `npm run demo:code`: the Coder's recorded UI task replayed with no API key, on a COPY of
// the sample site in a temp dir (the bundled one is never touched): the real loop, tools
// and ledger; browser_console against the copy's own preview server.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const here = import.meta.dirname;
const tally = join(here, '..', '..', 'bin', 'tally.js');
const work = mkdtempSync(join(tmpdir(), 'tally-coder-demo-'));
const site = join(work, 'site');
cpSync(join(here, 'site'), site, { recursive: true });

const preview = spawn(process.execPath, [join(site, 'preview-server.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let seen = '';
  preview.stdout.on('data', (chunk) => {
    seen += chunk;
    const match = /Preview: (\S+)/.exec(seen);
    if (match) resolve(match[1]);
  });
  preview.once('exit', (code) =>
    reject(new Error(`the preview server exited (${code}) before printing its URL`)),
  );
});

const chromium = process.env.TALLY_CHROMIUM ?? '/usr/bin/chromium';
process.stdout.write(`Sample copied to ${site}; preview server at ${url}\n`);
if (!existsSync(chromium))
  process.stdout.write(
    `Note: no Chromium at ${chromium}, so browser_console will report BROWSER_UNAVAILABLE and the turn ends with that failure. Install chromium (or set TALLY_CHROMIUM) to see the page checked.\n`,
  );
process.stdout.write('\n');

const cassette = join(here, 'ui-task.cassette.json');
const code = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [tally, 'code', '--root', site, '--replay', cassette, '--var', `PREVIEW_URL=${url}`],
    { stdio: 'inherit', env: { ...process.env, TALLY_LEDGER: join(work, 'ledger.db'), TALLY_MODEL: '' } },
  );
  child.once('exit', (exitCode) => resolve(exitCode ?? 1));
});
preview.kill();
if (process.env.TALLY_DEMO_KEEP === '1')
  process.stdout.write(
    `\nKept ${work}. The turn in the ledger: node bin/tally.js --ledger ${join(work, 'ledger.db')} runs\n`,
  );
else {
  rmSync(work, { recursive: true, force: true });
  process.stdout.write('\n(TALLY_DEMO_KEEP=1 keeps the copy and its ledger to look at.)\n');
}
// Without Chromium the turn honestly ends with the failed browser check (exit 1): the demo still ran.
process.exitCode = code === 0 || (code === 1 && !existsSync(chromium)) ? 0 : code;

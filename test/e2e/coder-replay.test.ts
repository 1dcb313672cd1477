import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';

const SAMPLE = join(import.meta.dirname, '..', '..', 'demo', 'coder-sample');
const CASSETTE = join(SAMPLE, 'ui-task.cassette.json');
const hasChromium = existsSync(process.env.TALLY_CHROMIUM ?? '/usr/bin/chromium');

function digestOf(dir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort())
    if (name.includes('.')) hash.update(name).update(readFileSync(join(dir, name)));
  return hash.digest('hex');
}

function copyOfSample(): string {
  const site = join(tempDir('tally-replay-'), 'site');
  cpSync(join(SAMPLE, 'site'), site, { recursive: true });
  return site;
}

// `tally code --replay` as a user runs it: the built CLI, no key, no model configured.
describe('tally code --replay (the cassette demo, no key)', () => {
  it('replays the bundled UI task through the real loop: nudge, refusal with suggestion, edit, changes report', async () => {
    const bundled = digestOf(join(SAMPLE, 'site'));
    const site = copyOfSample();
    // No preview server here: browser_console reports the refused connection (or a missing browser).
    const result = await runTally([
      'code',
      '--root',
      site,
      '--replay',
      CASSETTE,
      '--var',
      'PREVIEW_URL=http://127.0.0.1:9/',
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('✗ refused fs_edit /srv/counter/app.js: PATH_OUTSIDE_PROJECT');
    expect(result.stdout).toContain('Did you mean "app.js"?');
    expect(result.stdout).toMatch(/⚑ guard silence: nudge\n {2}↻ nudge \(silence\)/);
    expect(result.stdout).toMatch(
      /CHANGELOG\.md\s+created\s+106\s+[0-9a-f]{12}\napp\.js\s+updated\s+261\s+[0-9a-f]{12}/,
    );
    if (hasChromium) {
      expect(result.stdout).toMatch(
        /✓ browser_console http:\/\/127\.0\.0\.1:9\/ — chromium GET .* → no response/,
      );
      expect(result.code).toBe(0);
    }
    expect(readFileSync(join(site, 'app.js'), 'utf8')).toContain("getElementById('counter')");
    expect(digestOf(join(SAMPLE, 'site'))).toBe(bundled);
  });

  it('fails loudly when the loop asks for more than the cassette holds', async () => {
    const dir = tempDir();
    const short = join(dir, 'short.json');
    writeFileSync(
      short,
      JSON.stringify({
        version: 1,
        message: 'read app.js',
        steps: [{ toolCalls: [{ toolName: 'fs_read', input: { path: 'app.js' } }] }],
      }),
    );
    const result = await runTally(['code', '--root', copyOfSample(), '--replay', short]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CASSETTE_EXHAUSTED');
  });

  it('refuses a cassette of the wrong shape with the fix', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"version": 2}');
    const result = await runTally(['code', '--root', copyOfSample(), '--replay', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not have the expected shape');
  });
});

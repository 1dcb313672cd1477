import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, recordDemoHar } from '../../scripts/record-demo-har.js';
import { loadCaptures } from '../../src/packs/http/captures/load-captures.js';
import { CaptureIndex } from '../../src/packs/http/endpoints/capture-index.js';
import { resolveScope } from '../../src/packs/http/endpoints/scope.js';
import { tempDir } from '../helpers.js';
import { BUNDLED_HAR } from '../packs/http/demo-fixtures.js';

const hasChromium = existsSync(CHROMIUM_PATH);

function lines(path: string): string[] {
  const set = loadCaptures([path]);
  return new CaptureIndex(set.captures).endpointLines(resolveScope('/projects/alpha-shop', set.captures));
}

describe('the bundled HAR is an honest browser recording', () => {
  // Explicit, visible skip: CI installs Chromium (apt-get install -y chromium), so there it runs.
  it.skipIf(!hasChromium)(
    `re-recording in real Chromium (${CHROMIUM_PATH}) yields the same endpoints, with no secrets in the file`,
    async () => {
      const out = join(tempDir(), 'fresh.har');
      const { entries } = await recordDemoHar(out);
      expect(entries).toBeGreaterThan(30);
      expect(lines(out)).toEqual(lines(BUNDLED_HAR));
      const text = readFileSync(out, 'utf8');
      expect(text).not.toContain('demo-password');
      expect(text).not.toMatch(/demo_sid=[0-9a-f]{8}/);
      expect(text).not.toMatch(/"x-csrf-token",\s*"value":\s*"[0-9a-f]{8}/);
    },
    120_000,
  );

  it('the committed HAR holds no secrets', () => {
    const text = readFileSync(BUNDLED_HAR, 'utf8');
    expect(text).not.toContain('demo-password');
    expect(text).not.toMatch(/demo_sid=[0-9a-f]{8}/);
    expect(text).not.toMatch(/csrf-token\\" content=\\"[0-9a-f]{8}/);
  });
});

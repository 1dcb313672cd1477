// A base URL or an OTel endpoint with a password in it (`http://user:pw@host/`) is shown to
// the user in several places: the export warning, `tally doctor`, the fish result and the files
// `--emit` writes. The password reaches none of them, nor the ledger.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownUrl } from '../../src/core/shown-url.js';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

const APP_PASSWORD = 'BaseUrlPw-7731';
const OTEL_PASSWORD = 'OtelPw-5519';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Every file under `dir` (the ledger, its WAL, the fail-open log, emitted files), as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, text: readFileSync(path, 'latin1') }];
  });
}

describe('shownUrl', () => {
  it('masks a userinfo password and secret-named query values, keeping every other character', () => {
    expect(shownUrl('http://user:hunter22@127.0.0.1:4010/api')).toBe('http://user:***@127.0.0.1:4010/api');
    expect(shownUrl('https://u:p@ss:w0rd@h.example')).toBe('https://u:***@h.example');
    expect(shownUrl('//u:pw@h/x?page=2&api_key=K3Y#access_token=T0K&state=1')).toBe(
      '//u:***@h/x?page=2&api_key=***#access_token=***&state=1',
    );
    // Nothing to mask: the URL as written, trailing slash or not.
    for (const url of ['http://localhost:4318', 'http://user@h/', 'not a url', 'http://h/a?token_type=x'])
      expect(shownUrl(url)).toBe(url);
    // Shown twice, shown the same.
    expect(shownUrl(shownUrl('http://a:b@h/'))).toBe('http://a:***@h/');
  });
});

describe('a password in a base URL or an OTel endpoint reaches no output', () => {
  it('tally fish --json --emit and tally doctor show the URLs masked; the ledger and files hold neither password', async () => {
    const { app } = await demoApp();
    const cwd = tempDir();
    const otelPort = await closedPort();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://otel:${OTEL_PASSWORD}@127.0.0.1:${otelPort}` };
    const baseUrl = app.url.replace('http://', `http://tester:${APP_PASSWORD}@`);
    const emitted = join(cwd, 'items.json');
    const fish = await runTally(
      [
        'fish',
        '1 suite',
        '--captures',
        BUNDLED_HAR,
        '--base-url',
        baseUrl,
        '--scope',
        '/projects/alpha-shop',
        '--login',
        'demo',
        '--json',
        '--emit',
        'json',
        emitted,
      ],
      { cwd, env },
    );
    expect(fish.code, fish.stderr).toBe(0);
    const result = JSON.parse(fish.stdout) as { baseUrl: string };
    expect(result.baseUrl).toBe(baseUrl.replace(APP_PASSWORD, '***'));
    // The export warning names the endpoint, masked.
    expect(fish.stderr).toContain(
      `traces could not be exported to http://otel:***@127.0.0.1:${otelPort}/v1/traces`,
    );

    const doctor = await runTally(['doctor'], { cwd, env });
    expect(doctor.stdout).toContain(
      `exporting to http://otel:***@127.0.0.1:${otelPort}/v1/traces, but nothing answers`,
    );

    const files = filesUnder(cwd);
    expect(files.map((file) => file.path)).toContain(emitted);
    expect(readFileSync(emitted, 'utf8')).toContain('tester:***@127.0.0.1');
    for (const secret of [APP_PASSWORD, OTEL_PASSWORD]) {
      for (const output of [fish.stdout, fish.stderr, doctor.stdout, doctor.stderr])
        expect(output).not.toContain(secret);
      for (const file of files) expect(file.text, file.path).not.toContain(secret);
    }
  });

  it('a --spec URL with a password or a key in its query is shown masked when it cannot be read', async () => {
    const { app } = await demoApp();
    const spec = `${app.url.replace('http://', `http://tester:${APP_PASSWORD}@`)}/openapi.json?api_key=SpecKey-4410`;
    const fish = await runTally(['fish', '1 suite', '--spec', spec, '--base-url', app.url], {
      cwd: tempDir(),
    });
    expect(fish.code).not.toBe(0);
    expect(fish.stderr).toContain(`Cannot read the OpenAPI document ${shownUrl(spec)}`);
    for (const secret of [APP_PASSWORD, 'SpecKey-4410'])
      expect(`${fish.stdout}${fish.stderr}`).not.toContain(secret);
  });
});

// Prism (@stoplight/prism-cli), a real OpenAPI mock server nobody here wrote, on 127.0.0.1.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './json-server-fixture.js';

const PRISM = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'prism');

export interface Prism {
  url: string;
  process: ChildProcess;
}

/**
 * Prism on 127.0.0.1 and a free port; ready when it answers. As a mock (dynamic mode) or,
 * with `upstream`, as a validating proxy in front of a real app. Prism validates every
 * request either way (an invalid one gets the spec's 400/422, or 422); `--errors` also
 * turns violations of the responses (its own generated ones, or the upstream's) into errors.
 */
export async function startPrism(
  document: string,
  options: { errors?: boolean; upstream?: string } = {},
): Promise<Prism> {
  const port = await freePort();
  const mode = options.upstream ? ['proxy', document, options.upstream] : ['mock', '--dynamic', document];
  const child = spawn(
    PRISM,
    [...mode, ...((options.errors ?? true) ? ['--errors'] : []), '-h', '127.0.0.1', '-p', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // A loose hang guard: Prism takes seconds to start on a loaded machine.
  const deadline = Date.now() + 90_000;
  while (!/Prism is listening/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`Prism did not start: ${output.slice(-500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, process: child };
}

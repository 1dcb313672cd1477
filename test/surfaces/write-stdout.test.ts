// `writeStdout` (src/surfaces/cli/write-stdout.ts) writes a short command's output straight to
// descriptor 1. What a user would notice if it broke: output cut short or out of order when the
// reader is slow, or an error (or a hang) when the reader stops early (`| head`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULE = join(import.meta.dirname, '..', '..', 'src', 'surfaces', 'cli', 'write-stdout.ts');

const lines = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => `line ${from + index} ${'x'.repeat(60)}\n`).join('');

/** Runs `body` in a child with `writeStdout` imported; `read` decides how its stdout is read. */
function child(body: string) {
  const script = `import { writeStdout } from ${JSON.stringify(MODULE)};\nconst lines = ${lines.toString()};\n${body}`;
  return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exited(process: ReturnType<typeof child>): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  process.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => process.on('close', (code) => resolve({ code, stderr })));
}

describe('writeStdout', () => {
  it('a reader that waits before reading still gets every byte, in order (blocking pipe)', async () => {
    const run = child(`writeStdout(lines(20_000)); writeStdout('end\\n');`);
    run.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    let out = '';
    run.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    run.stdout.resume();
    const { code, stderr } = await exited(run);
    expect([code, stderr]).toEqual([0, '']);
    expect(out).toBe(`${lines(20_000)}end\n`);
  });

  it('on a non-blocking pipe that fills (EAGAIN) hands the rest to process.stdout, order kept', async () => {
    // Touching process.stdout makes libuv put descriptor 1 in non-blocking mode.
    const run = child(
      `process.stdout; writeStdout(lines(20_000)); writeStdout(lines(10, 20_000)); writeStdout('end\\n');`,
    );
    run.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    let out = '';
    run.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    run.stdout.resume();
    const { code, stderr } = await exited(run);
    expect([code, stderr]).toEqual([0, '']);
    expect(out).toBe(`${lines(20_010)}end\n`);
  });

  it('a reader that stops early ends the output quietly: exit 0, nothing on stderr', async () => {
    const run = child(
      `for (let i = 0; i < 50; i++) writeStdout(lines(2_000)); process.stderr.write('done\\n');`,
    );
    run.stdout.once('data', () => run.stdout.destroy());
    const { code, stderr } = await exited(run);
    expect([code, stderr]).toEqual([0, 'done\n']);
  });
});

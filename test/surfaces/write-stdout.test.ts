// `writeStdout` (src/surfaces/cli/write-stdout.ts) writes a short command's output straight to
// descriptor 1. What a user would notice if it broke: output cut short or out of order when the
// reader is slow, or an error (or a hang) when the reader stops early (`| head`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The built module, run by plain node: a loader such as tsx touches process.stdout, which makes
// descriptor 1 non-blocking and would hide the blocking case.
const MODULE = join(import.meta.dirname, '..', '..', 'dist', 'surfaces', 'cli', 'write-stdout.js');

const lines = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => `line ${from + index} ${'x'.repeat(60)}\n`).join('');

/**
 * Runs `body` in a child with `writeStdout` imported. `throughShell`: its stdout is a pipe the
 * shell made (blocking, as in `tally records query … | less`) and read 300 ms late by `cat`;
 * otherwise the pipe Node's spawn makes.
 */
function child(body: string, throughShell = false) {
  const script = `import { writeStdout } from ${JSON.stringify(MODULE)};\nconst lines = ${lines.toString()};\n${body}`;
  const node = [process.execPath, '--input-type=module', '-e', script];
  if (!throughShell) return spawn(node[0] as string, node.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  const quoted = node.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(' ');
  return spawn('sh', ['-c', `${quoted} | (sleep 0.3; cat)`], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Waits 300 ms before reading the child's stdout, then reads all of it. */
async function readLate(
  run: ReturnType<typeof child>,
): Promise<{ code: number | null; stderr: string; out: string }> {
  run.stdout.pause();
  await new Promise((resolve) => setTimeout(resolve, 300));
  let out = '';
  run.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  run.stdout.resume();
  return { ...(await exited(run)), out };
}

function exited(process: ReturnType<typeof child>): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  process.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => process.on('close', (code) => resolve({ code, stderr })));
}

describe('writeStdout', () => {
  it('on a blocking pipe read late, every byte arrives in order', async () => {
    const run = child(`writeStdout(lines(20_000)); writeStdout('end\\n');`, true);
    expect(await readLate(run)).toEqual({ code: 0, stderr: '', out: `${lines(20_000)}end\n` });
  });

  it('on a non-blocking pipe that fills (EAGAIN) hands the rest to process.stdout, order kept', async () => {
    // Creating process.stdout makes libuv put descriptor 1 in non-blocking mode.
    const run = child(
      `process.stdout; writeStdout(lines(20_000)); writeStdout(lines(10, 20_000)); writeStdout('end\\n');`,
    );
    expect(await readLate(run)).toEqual({ code: 0, stderr: '', out: `${lines(20_010)}end\n` });
  });

  it("bytes (a resident server's answer) arrive as they were given, between strings, in order", async () => {
    // A multi-byte character cut across two Buffers is written as the bytes it is, not decoded.
    const run = child(
      `const dash = Buffer.from('é — ok\\n'); writeStdout('a\\n'); writeStdout(dash.subarray(0, 3)); writeStdout(dash.subarray(3)); writeStdout(Buffer.from(lines(20_000))); writeStdout('end\\n');`,
      true,
    );
    expect(await readLate(run)).toEqual({ code: 0, stderr: '', out: `a\né — ok\n${lines(20_000)}end\n` });
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

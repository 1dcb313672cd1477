import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomicStreamed } from '../../../src/core/io/atomic-write-streamed.js';
import { isTallyTempName } from '../../../src/core/io/temp-files.js';
import { tempDir } from '../../helpers.js';

/** A pid that certainly belongs to no process any more: a child that has exited. */
function deadPid(): number {
  return Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }),
  );
}

describe('writeFileAtomicStreamed', () => {
  it('replaces the target whole with every chunk, in order, and leaves no temporary file', async () => {
    const dir = tempDir();
    const target = join(dir, 'report.html');
    writeFileSync(target, 'the previous report, longer than the new one '.repeat(1000));
    await writeFileAtomicStreamed(
      target,
      async (write) => {
        write('<head>');
        for (let page = 0; page < 50; page++) {
          await new Promise((resolve) => setImmediate(resolve));
          write(Buffer.from(`<row ${page}>`));
        }
        write('</html>');
      },
      { mode: 0o644 },
    );
    const rows = Array.from({ length: 50 }, (_, page) => `<row ${page}>`).join('');
    expect(readFileSync(target, 'utf8')).toBe(`<head>${rows}</html>`);
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(readdirSync(dir)).toEqual(['report.html']);
  });

  it('while the content streams, the target still holds the old file and the chunks sit under a reapable temporary name', async () => {
    const dir = tempDir();
    const target = join(dir, 'report.html');
    writeFileSync(target, 'old');
    await writeFileAtomicStreamed(target, (write) => {
      write('half of the new');
      expect(readFileSync(target, 'utf8')).toBe('old');
      const temporary = readdirSync(dir).filter((name) => name !== 'report.html');
      expect(temporary).toHaveLength(1);
      expect(isTallyTempName(temporary[0] as string)).toBe(true);
      expect(temporary[0]).toContain(`.report.html.tally-${process.pid}-`);
      expect(readFileSync(join(dir, temporary[0] as string), 'utf8')).toBe('half of the new');
    });
    expect(readFileSync(target, 'utf8')).toBe('half of the new');
  });

  it('a failure mid-stream leaves the previous file intact and no temporary file behind', async () => {
    const dir = tempDir();
    const target = join(dir, 'report.html');
    writeFileSync(target, 'the previous report');
    await expect(
      writeFileAtomicStreamed(target, async (write) => {
        write('x'.repeat(256 * 1024));
        await new Promise((resolve) => setImmediate(resolve));
        write('more');
        throw new Error('the ledger went away');
      }),
    ).rejects.toThrow('the ledger went away');
    expect(readFileSync(target, 'utf8')).toBe('the previous report');
    expect(readdirSync(dir)).toEqual(['report.html']);
  });

  it('a failed rename (a directory now stands at the target) removes the temporary file', async () => {
    const dir = tempDir();
    const target = join(dir, 'report.html');
    await writeFileAtomicStreamed(target, () => undefined);
    const blocked = join(dir, 'taken');
    execFileSync('mkdir', ['-p', join(blocked, 'inside')]);
    await expect(writeFileAtomicStreamed(blocked, (write) => write('new'))).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/),
    });
    expect(readdirSync(dir).sort()).toEqual(['report.html', 'taken']);
    expect(readdirSync(blocked)).toEqual(['inside']);
  });

  it('an unwritable folder fails before the content is made, naming the target, not the temporary file', async () => {
    const dir = tempDir();
    const target = join(dir, 'missing', 'report.html');
    let produced = false;
    const failure = await writeFileAtomicStreamed(target, () => {
      produced = true;
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'ENOENT', path: target });
    expect(produced).toBe(false);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('a symlink planted at the target is replaced, never written through', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'victim'), 'untouched');
    symlinkSync(join(dir, 'victim'), join(dir, 'report.html'));
    await writeFileAtomicStreamed(join(dir, 'report.html'), (write) => write('new'));
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('untouched');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe('new');
  });

  it('a killed earlier write’s temporary file is reaped; a live writer’s is kept', async () => {
    const dir = tempDir();
    const crashed = join(dir, `.report.html.tally-${deadPid()}-0123456789ab.tmp`);
    const live = join(dir, `.report.html.tally-${process.ppid}-ba9876543210.tmp`);
    for (const file of [crashed, live]) writeFileSync(file, 'half');
    await writeFileAtomicStreamed(join(dir, 'report.html'), (write) => write('whole'));
    expect(existsSync(crashed)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});

/** Runs `fn` `times` times and returns the median duration in milliseconds. */
export async function medianMs(times: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < times; index++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

export interface BenchRow {
  name: string;
  value: string;
  baseline?: string;
  ratio?: string;
  target?: string;
  pass?: boolean;
}

export function printRows(title: string, rows: BenchRow[]): void {
  process.stdout.write(`\n## ${title}\n`);
  for (const row of rows) {
    const parts = [row.name.padEnd(52), row.value.padStart(16)];
    if (row.baseline) parts.push(`baseline ${row.baseline}`);
    if (row.ratio) parts.push(`ratio ${row.ratio}`);
    if (row.target)
      parts.push(`target ${row.target}${row.pass === undefined ? '' : row.pass ? '  PASS' : '  FAIL'}`);
    process.stdout.write(`${parts.join('  ')}\n`);
  }
}

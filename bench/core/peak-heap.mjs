// Loaded with `node --import` into a measured process next to max-rss.mjs: samples the JS heap in
// use every 2 ms (and at exit) and writes the peak (bytes) where TALLY_BENCH_HEAP_FILE says. Peak
// RSS alone also counts the ledger's read-only mmap (file pages the kernel can drop at will).
// Rough: a timer only fires between pages, and the heap in use includes garbage not yet
// collected; the smallest --max-old-space-size a command completes in says more.
import { writeFileSync } from 'node:fs';

const file = process.env.TALLY_BENCH_HEAP_FILE;
if (file) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  setInterval(sample, 2).unref();
  process.on('exit', () => {
    sample();
    writeFileSync(file, String(peak));
  });
}

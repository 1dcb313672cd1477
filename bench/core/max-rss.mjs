// Loaded with `node --import` into a measured process: writes its peak RSS (bytes) where
// TALLY_BENCH_RSS_FILE says, as it exits. Node's child_process reports no rusage of children.
import { writeFileSync } from 'node:fs';

const file = process.env.TALLY_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));

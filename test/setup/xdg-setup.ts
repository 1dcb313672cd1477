import { inject } from 'vitest';

// Before each test file, in its worker: the run's temporary XDG folders (see xdg-global.ts).
// Child processes inherit them through process.env (runTally spreads it); a test that needs
// its own folder still passes XDG_CACHE_HOME / XDG_STATE_HOME explicitly and wins.
const xdg = inject('tallyXdg');
process.env.XDG_CACHE_HOME = xdg.cache;
process.env.XDG_STATE_HOME = xdg.state;
process.env.XDG_RUNTIME_DIR = xdg.runtime;

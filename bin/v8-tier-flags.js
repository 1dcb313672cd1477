// When V8 optimizes a function is a trade: the optimizing compilers (TurboFan, and Maglev on
// Node 24) run on background threads, and in a command that lives a second their CPU can exceed
// what the faster code saves (issue 22: a 220-entity `tally fish` spent ~85 ms of CPU on V8's
// background threads, the equivalent node:http script 27). Paired runs, CPU user+sys, 220
// entities: the thresholds below cut 20–45 ms on Node 22 and 24. Not on Node 20: there the
// interrupt budget, though it cut a 1,050-entity run by a seventh, made the short runs users make
// most slower (quiet machine, 15–21 pairs: "1 suite" +20 ms wall, 8 entities +34 ms wall and
// +30 ms CPU; 220 entities +12 ms wall, −20 ms CPU). They are not used
// where they lost: `runs`/`report`/`stats` and hooks (+8–13 ms: a flag set at run time has a
// cost, below, and they have no hot loop to win it back) and `records query` (a 50,000-record
// first query took ~8% more CPU on Node 20).
'use strict';

/**
 * Flags that keep V8's optimizing compilers for really hot code, chosen by what this V8 has: an
 * unknown flag makes V8 print "unrecognized flag" on every command, so a V8 not measured gets
 * none. Eight times the defaults.
 */
function tierUpFlags(v8Version = process.versions.v8) {
  const major = Number.parseInt(v8Version, 10);
  // V8 ≤ 11 (Node 20): its interrupt budget, raised, lost on short runs (above). None.
  if (major <= 11) return [];
  // V8 12–13 (Node 22, 24) tier up by invocation counts: TurboFan at 3,000, Maglev (on by
  // default from Node 24) at 400.
  if (major <= 13)
    return [`--invocation-count-for-turbofan=${8 * 3000}`, `--invocation-count-for-maglev=${8 * 400}`];
  return [];
}

/**
 * Sets tierUpFlags() in this process and returns them as one string ('' where none), for the
 * code cache's key: cached compiled code is only valid under the flags that made it. A flag set
 * at run time changes V8's flag hash, and Node's builtins carry compiled code checked against
 * that hash: every builtin loaded afterwards is compiled from source (~10 ms for a command that
 * then loads node:http and node:crypto). So the builtins the command loads anyway, `builtins`,
 * are loaded first, while their compiled code still counts. Call it before the bundle compiles.
 */
function raiseTierUpThresholds(builtins) {
  const flags = tierUpFlags();
  if (flags.length === 0) return '';
  for (const builtin of builtins) require(builtin);
  const v8 = require('node:v8');
  for (const flag of flags) v8.setFlagsFromString(flag);
  return flags.join(' ');
}

/** Builtins a captures run of `tally fish` loads anyway (a test holds the list to that). */
const FISH_BUILTINS = ['node:module', 'node:os', 'node:crypto', 'node:stream/promises', 'node:net'];

module.exports = { tierUpFlags, raiseTierUpThresholds, FISH_BUILTINS };

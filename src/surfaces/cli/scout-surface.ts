import { defineAgentSurface } from '../agent-surface.js';

/** `tally scout "<goal>"`: declared here, run by scout-command.ts (loaded only when it runs). */
export const scoutSurface = defineAgentSurface<{
  root?: string;
  session?: string;
  json?: boolean;
  model?: string;
}>({
  name: 'scout',
  description:
    'Find the records that govern a goal (no model needed): recall, probes, one --cat batch, verified.',
  cli: {
    arguments: [
      { name: '<goal>', description: 'what you are about to do, e.g. "release a version of acme/shop"' },
    ],
    options: [
      { flags: '--root <dir>', description: 'records root' },
      {
        flags: '--session <id>',
        description: 'session id for warm start and the digest (default $TALLY_SESSION_ID)',
      },
      {
        flags: '--model <spec>',
        description: 'a model chooses the probes and judges what governs (empty: no model)',
      },
      { flags: '--json', description: 'machine-readable output' },
    ],
    run: async ([goal], flags, command) =>
      (await import('./scout-command.js')).default(goal as string, flags, command),
  },
});

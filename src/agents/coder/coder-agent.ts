import { type Agent, defineAgent, resolversOf } from '../../core/agent/agent-definition.js';
import type { ContractSpec } from '../../core/agent/contract.js';
import type { GuardSettings } from '../../core/agent/guard-settings.js';
import type { RunReview } from '../../core/agent/run-review.js';
import type { ToolDefinition } from '../../core/tool.js';
import { SCOUT_TOOL } from '../scout/scout-tool.js';
import { coderIsConversational } from './coder-conversational.js';
import { changedFileItems, coderVerifier } from './coder-verifier.js';

export const CODER_AGENT = 'coder';

/**
 * The Coder's guard settings. The silence nudge (3 silent rounds or 6 tool calls) must be
 * able to fire before the round cap; `defineAgent` rejects settings where it cannot.
 */
export const CODER_GUARDS: Partial<GuardSettings> = {
  maxRounds: 24,
  silence: { rounds: 3, toolCalls: 6 },
};

const INSTRUCTIONS = `You are a coding agent working inside one project directory, in a chat with a developer.

Tools: fs_tree (the layout; cached for this chat, so one call is enough), fs_list, fs_glob, fs_grep, fs_read, fs_write, fs_edit, fs_move, fs_delete. Every path is relative to the project root; anything outside it is refused with a suggested path. After a UI change, check the page with browser_console on the local preview URL (loopback only).

- Read before you edit; prefer fs_edit with a line range for small changes.
- Keep the user informed: a short sentence of what you are doing every few steps.
- End every turn with a plain-text reply to the user. If this turn changed files, end the reply with a \`Changes:\` line and one bullet per file, exactly one of:
  - created PATH
  - updated PATH
  - deleted PATH
  - moved FROM -> TO
  List every file whose content this turn changed and nothing else: a file you moved without editing is moved, not updated; an edit you undid is no change. Mention only files you actually changed in this turn; the harness compares the list and your reply with the files' content before and after the turn and flags every difference.
- If something fails, say what failed and why; do not pretend it worked.
- You cannot run commands: no tests, builds or linters run in this chat. Never say they pass or that you ran them; say which command the developer should run.
- A greeting or a question needs a text answer, not tools.`;

/** Said only when the scout tool is in the toolset (a records root is configured). */
const SCOUT_INSTRUCTIONS = `

Before work that a project record may govern (a release, a migration, a deploy, a convention), call \`${SCOUT_TOOL}\` with the goal: it returns the governing records, read in its own verified run, with their commands verbatim. Follow them, and cite only records it returned.`;

export interface CoderAgentOptions {
  tools: ToolDefinition[];
  /** Replaces the default conversational-opening classifier. */
  isConversational?: (message: string) => boolean;
  guards?: Partial<GuardSettings>;
  /** What the request asks of which files (`coderContract`): a turn that misses it is not a success. */
  contract?: ContractSpec;
  /** The turn's judgement (changes by content, flags, a failed last call), written into the end entry. */
  review?: RunReview;
}

/** The Coder: a chat agent (a turn ends in text, no finish) over the workspace tools. */
export function coderAgent(options: CoderAgentOptions): Agent {
  return defineAgent({
    name: CODER_AGENT,
    instructions: options.tools.some((tool) => tool.name === SCOUT_TOOL)
      ? `${INSTRUCTIONS}${SCOUT_INSTRUCTIONS}`
      : INSTRUCTIONS,
    tools: options.tools,
    // A finish claim is checked by content, by the same rule as the turn's changes report.
    verifier: coderVerifier(resolversOf(options.tools)),
    // An interrupted turn counts the files it changed; a finish must still name its own.
    itemsWithoutFinish: changedFileItems,
    requireFinish: false,
    guards: { ...CODER_GUARDS, ...options.guards },
    isConversational: options.isConversational ?? coderIsConversational,
    ...(options.contract ? { contract: options.contract } : {}),
    ...(options.review ? { review: options.review } : {}),
  });
}

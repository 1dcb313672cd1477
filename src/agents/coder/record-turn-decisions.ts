import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { errorMessage } from '../../core/errors.js';
import type { FailOpen } from '../../core/fail-open.js';
import {
  decisionsByModel,
  decisionsByRule,
  mayStateDecision,
  type StatedDecision,
} from './extract-decisions.js';
import { type DecisionRecord, type DecisionSource, writeDecisionRecords } from './write-decision-records.js';
// Registers decision-extraction-failed.
import './coder-fail-open-reasons.js';

export interface TurnDecisions {
  records: DecisionRecord[];
  /** Why nothing was written when something may have been stated (no store, a failure). */
  note?: string;
}

export interface RecordTurnDecisionsOptions {
  user: string;
  reply: string;
  projectRoot: string;
  /** Where the records live; default: the project root when it has a `references/` folder. */
  recordsRoot?: string;
  /** Asked only when the rules found nothing and the wording hints at a decision. */
  model?: LanguageModelV3;
  source: DecisionSource;
  failOpen: FailOpen;
  signal?: AbortSignal;
}

function defaultRecordsRoot(projectRoot: string): string | undefined {
  const references = join(projectRoot, 'references');
  return existsSync(references) && lstatSync(references).isDirectory() ? projectRoot : undefined;
}

/**
 * After a turn: the decisions stated in it, as records. Never fails the turn: any failure
 * (a model that answers nonsense, an unwritable store) is a `decision-extraction-failed`
 * fail-open and a note in the result.
 */
export async function recordTurnDecisions(options: RecordTurnDecisionsOptions): Promise<TurnDecisions> {
  try {
    let decisions: StatedDecision[] = decisionsByRule(options.user, options.reply);
    if (decisions.length === 0 && options.model && mayStateDecision(options.user))
      decisions = await decisionsByModel(options.model, options.user, options.signal);
    if (decisions.length === 0) return { records: [] };
    const recordsRoot = options.recordsRoot ?? defaultRecordsRoot(options.projectRoot);
    if (!recordsRoot)
      return {
        records: [],
        note: `${decisions.length} decision(s) stated but not recorded: ${options.projectRoot} has no references/ folder. Create it, or pass a records root (--records-root).`,
      };
    return { records: writeDecisionRecords(recordsRoot, decisions, options.source) };
  } catch (error) {
    // Fail open by design: the turn's work is done and reported whatever happens here.
    options.failOpen('coder.decisions', 'decision-extraction-failed', options.source.chatId);
    return {
      records: [],
      note: `Decision extraction failed (${errorMessage(error).slice(0, 200)}); the turn is unaffected. Check the records root, or record the decision by hand.`,
    };
  }
}

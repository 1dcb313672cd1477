import type { LedgerEntry } from '../../core/ledger/entry.js';
import type { ProjectRoot } from '../../packs/workspace/project-root.js';
import { parseChangeList, verifyChangeList } from './change-list.js';
import { contentChanges, fileHistories } from './changes-report.js';
import type { ChangeFlag, FileChange } from './chat-record.js';
import { countedChangeFlags } from './counted-changes.js';
import { type EarlierTurn, flagFalseStatements, type TurnFacts } from './flag-false-statements.js';
import { mentionedChanges } from './mentioned-changes.js';
import { readClaimFlags } from './read-claims.js';
import { searchedPaths } from './search-claims.js';
import { statedEvidenceFlags } from './stated-evidence.js';
import { unrunCheckFlags } from './unrun-checks.js';

export interface JudgeTurnInput {
  /** The model's final reply; nothing to judge when absent (the changes report is still made). */
  text?: string | undefined;
  /** The turn's ledger entries (its run): the file effects, with what each path held before. */
  entries: readonly LedgerEntry[];
  /** The texts of the turn's earlier steps, shown to the user as it ran: read by the prose net. */
  shown?: readonly string[];
  /** The summary of the turn's `finish` call, if it made one: judged the same way as the reply. */
  summary?: string | undefined;
  /** The project root the workspace tools resolved against (the same resolver reads the reply). */
  root: ProjectRoot;
  /** The chat's earlier turns and their changes: the only thing a recap may rest on. */
  earlier?: readonly EarlierTurn[];
}

export interface TurnJudgement {
  /** The files the turn changed, by content: before the turn vs after it. */
  changes: FileChange[];
  /** Statements of the reply that the changes contradict, and changes its `Changes:` list left out. */
  flags: ChangeFlag[];
  /** Whether the reply had a `Changes:` list (checked both ways) or was read as prose only. */
  checked: 'changes-list' | 'prose' | 'nothing';
}

/**
 * The Coder's claims in data: the changes report by content, and the reply judged against
 * it. A reply with a `Changes:` list (see `parseChangeList`) has every entry checked (path
 * and kind) and every real change required in it; the rest of the reply, or a reply without
 * a list, goes through the prose net (`mentionedChanges`). The `finish` summary, when the
 * turn made one, is judged the same way. Flags are one list: the reply's, then the summary's.
 */
export async function judgeTurn(input: JudgeTurnInput): Promise<TurnJudgement> {
  const histories = fileHistories(input.entries);
  const changes = contentChanges(histories);
  const shown = input.shown ?? [];
  if (!input.text && !input.summary && shown.length === 0) return { changes, flags: [], checked: 'nothing' };
  const facts: TurnFacts = {
    changes,
    histories,
    root: input.root,
    earlier: input.earlier ?? [],
    searched: searchedPaths(input.entries),
  };
  const reply = input.text ? await judgeText(input.text, facts) : { flags: [], list: false };
  // The finish summary is shown as the result: a false sentence there is as false as in the reply.
  const summary = input.summary
    ? await judgeText(input.summary, facts, 'finish')
    : { flags: [], list: false };
  const known = new Set<string>();
  const flags: ChangeFlag[] = [];
  // A step's text is progress, not the final account: its claims are checked, its lists are not held to completeness.
  const stepTexts = shown.join('\n\n');
  const steps = await flagFalseStatements(mentionedChanges(stepTexts), facts);
  // No Coder tool runs a command: a test, build or lint run reported anywhere is unbacked.
  const unrun = [
    ...(input.text ? unrunCheckFlags(input.text) : []),
    ...(input.summary ? unrunCheckFlags(input.summary, 'finish') : []),
    ...unrunCheckFlags(stepTexts),
  ];
  for (const flag of [...reply.flags, ...summary.flags, ...steps, ...unrun]) {
    const key = `${flag.statement ?? flag.path}\n${flag.said}`;
    if (known.has(key)) continue;
    known.add(key);
    flags.push(flag);
  }
  return { changes, flags, checked: reply.list || summary.list ? 'changes-list' : 'prose' };
}

/** One text's flags: its `Changes:` list checked both ways, the rest through the prose net. */
async function judgeText(
  text: string,
  facts: TurnFacts,
  source?: 'finish',
): Promise<{ flags: ChangeFlag[]; list: boolean }> {
  const list = parseChangeList(text);
  const listed = list ? await verifyChangeList(list, facts) : [];
  const prose = await flagFalseStatements(mentionedChanges(list ? list.rest : text), facts);
  const known = new Set(listed.map((flag) => `${flag.path}\n${flag.said}`));
  // Counts, reads and evidence stated in the reply are held to the ledger too.
  const stated = [
    ...countedChangeFlags(text, facts.changes),
    ...(await readClaimFlags(text, facts)),
    ...(await statedEvidenceFlags(text, facts)),
  ];
  const flags = [...listed, ...prose.filter((flag) => !known.has(`${flag.path}\n${flag.said}`)), ...stated];
  return { flags: source ? flags.map((flag) => ({ ...flag, source })) : flags, list: list !== undefined };
}

import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { TallyError } from '../../core/errors.js';
import type { StatedDecision } from './extract-decisions.js';

export interface DecisionRecord {
  id: string;
  /** Relative to the records root. */
  path: string;
  title: string;
  by: 'rule' | 'model';
}

export interface DecisionSource {
  chatId: string;
  turn: number;
  runId: string;
  date: string;
}

export const DECISIONS_STORE = 'references/decisions';

const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'to',
  'for',
  'of',
  'and',
  'or',
  'use',
  'with',
  'in',
  'on',
  'we',
  'our',
]);

function slugOf(title: string): string {
  return (
    title
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'decision'
  );
}

function keywordsOf(title: string): string[] {
  const words = title
    .toLowerCase()
    .split(/[^a-z0-9+#.]+/)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word));
  return [...new Set(words)].slice(0, 8).concat(words.length === 0 ? ['decision'] : []);
}

/** Security: the store folder is made if missing but never followed when it is a link. */
function storeDirectory(recordsRoot: string): string {
  let dir = recordsRoot;
  for (const part of DECISIONS_STORE.split('/')) {
    dir = join(dir, part);
    if (!existsSync(dir)) mkdirSync(dir, { mode: 0o755 });
    const stats = lstatSync(dir);
    if (stats.isSymbolicLink() || !stats.isDirectory())
      throw new TallyError(
        'DECISION_STORE_UNSAFE',
        `${dir} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; decisions are not written through it. Replace it with a real directory.`,
        { path: dir },
      );
  }
  return dir;
}

/**
 * Writes each decision as a `kind: decision` record (`confidence: auto`, the chat, turn and
 * run named) under `<recordsRoot>/references/decisions/`. The frontmatter is YAML written by
 * the YAML library, so no title can inject keys. A decision whose id is already on disk is
 * not written again (the same sentence in a later turn). `links` stays a map of stores: the
 * chat is not a store, so it is named in `chat` and `chat_file`, where lint does not look.
 */
export function writeDecisionRecords(
  recordsRoot: string,
  decisions: readonly StatedDecision[],
  source: DecisionSource,
): DecisionRecord[] {
  if (decisions.length === 0) return [];
  const dir = storeDirectory(recordsRoot);
  const existing = new Set(readdirSync(dir));
  const written: DecisionRecord[] = [];
  for (const decision of decisions) {
    const slug = slugOf(decision.title);
    const id = `DEC-auto-${slug}`;
    const name = `${id}.md`;
    if (existing.has(name)) continue;
    const frontmatter = stringify({
      id,
      kind: 'decision',
      date: source.date,
      status: 'accepted',
      title: decision.title,
      keywords: keywordsOf(decision.title),
      links: {},
      confidence: 'auto',
      extracted_by: decision.by,
      chat: source.chatId,
      chat_file: `.tally/chats/${source.chatId}.json`,
      turn: source.turn,
      run: source.runId,
    });
    const body = `Decision stated in chat ${source.chatId}, turn ${source.turn}:\n\n> ${decision.quote}\n`;
    let fd: number;
    try {
      fd = openSync(
        join(dir, name),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EEXIST') continue; // written meanwhile: same decision
      throw error;
    }
    try {
      writeSync(fd, `---\n${frontmatter}---\n${body}`);
    } finally {
      closeSync(fd);
    }
    existing.add(name);
    written.push({ id, path: `${DECISIONS_STORE}/${name}`, title: decision.title, by: decision.by });
  }
  return written;
}

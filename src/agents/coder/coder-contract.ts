import type { ClaimResolver } from '../../core/agent/claims.js';
import { QUOTED_CONTENT, quotedContentOf } from '../../core/agent/content-words.js';
import type { ContractSpec, RequestContract, StatedContract } from '../../core/agent/contract.js';
import { isPathWord } from '../../core/agent/request-words.js';
import type { NetEffect, NetEffects } from '../../core/effects.js';

/** What the request asks of one file. `keep`: "don't touch X". */
export type FileAction = 'create' | 'change' | 'delete' | 'move' | 'keep';

export interface FileRequirement {
  action: FileAction;
  /** As the request spelled it. */
  path: string;
  /** For a move: the destination, as spelled. */
  to?: string;
  /** Text the file must contain at the end of the turn. */
  contains?: string;
}

export interface CoderContractData {
  files: FileRequirement[];
}

// The verb nearest before a path decides what is asked of it. Reads, questions and
// explanations ask for nothing; "don't"/"never" before a change verb asks to keep the file.
const VERBS: [RegExp, FileAction | 'read'][] = [
  [/^(?:create|add|write|make|new|generate|scaffold|touch|put|save)$/i, 'create'],
  [
    /^(?:edit|change|update|modify|fix|append|replace|refactor|rewrite|patch|amend|adjust|insert|bump|set)$/i,
    'change',
  ],
  [/^(?:delete|remove|rm|drop|erase)$/i, 'delete'],
  [/^(?:move|rename|mv|relocate)$/i, 'move'],
  [
    /^(?:read|show|explain|open|look|view|summarize|summarise|describe|check|review|cat|see|print|find|list|grep|search|what|why|how|where|which|does|is|are)$/i,
    'read',
  ],
];
const NEGATION = /^(?:don't|dont|do not|never|without|not|leave|keep|preserve)$/i;
// Content a request states for a file: "containing "X"", "with the text "X"", "that says "X"".
const CONTENT = new RegExp(
  `^(?:containing|contains|with\\s+(?:the\\s+)?(?:text|content|contents|line|words?)|that\\s+(?:says|reads)|saying|reading)\\s*:?\\s*${QUOTED_CONTENT}`,
  'i',
);

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'path'; text: string }
  | { kind: 'content'; text: string };

function tokenize(clause: string): Token[] {
  const tokens: Token[] = [];
  let rest = clause;
  while (rest.length > 0) {
    const space = /^\s+/.exec(rest);
    if (space) {
      rest = rest.slice(space[0].length);
      continue;
    }
    const content = CONTENT.exec(rest);
    if (content) {
      tokens.push({
        kind: 'content',
        text: quotedContentOf(content) as string,
      });
      rest = rest.slice(content[0].length);
      continue;
    }
    const quoted = /^(?:"[^"]*"|“[^”]*”|`[^`]*`)/.exec(rest);
    const raw = quoted ? quoted[0] : (/^\S+/.exec(rest) as RegExpExecArray)[0];
    rest = rest.slice(raw.length);
    const bare = raw.replace(/^["“`'(]+|["”`'),;:!?]+$/g, '').replace(/\.$/, '');
    if (bare && isPathWord(bare)) tokens.push({ kind: 'path', text: bare });
    else if (!quoted) tokens.push({ kind: 'word', text: bare.toLowerCase() });
  }
  return tokens;
}

function verbOf(word: string): FileAction | 'read' | undefined {
  return VERBS.find(([pattern]) => pattern.test(word))?.[1];
}

/** One clause's requirements: "create a.md and b.md containing "x"", "move a.md to docs/a.md". */
function clauseRequirements(clause: string): FileRequirement[] {
  const tokens = tokenize(clause);
  const found: FileRequirement[] = [];
  let action: FileAction | 'read' | undefined;
  let negated = false;
  // A negation that already kept a path ("leave a.md and delete b.md") does not reach a later verb.
  let kept = false;
  for (const [index, token] of tokens.entries()) {
    if (token.kind === 'word') {
      const verb = verbOf(token.text);
      if (verb) {
        action = negated && !kept && verb !== 'read' ? 'keep' : verb;
        negated = false;
      } else if (NEGATION.test(token.text)) {
        negated = true;
        kept = false;
      }
      continue;
    }
    if (token.kind === 'content') {
      const last = found.at(-1);
      if (last && (last.action === 'create' || last.action === 'change')) last.contains = token.text;
      continue;
    }
    if (negated) {
      found.push({ action: 'keep', path: token.text });
      kept = true;
      continue;
    }
    if (!action || action === 'read') continue;
    if (action === 'move') {
      const open = found.at(-1);
      const joiner = tokens[index - 1];
      if (
        open?.action === 'move' &&
        !open.to &&
        joiner?.kind === 'word' &&
        /^(?:to|into|as)$/.test(joiner.text)
      ) {
        open.to = token.text;
        continue;
      }
    }
    found.push({ action, path: token.text });
  }
  // "rename a.ts" with no destination names a change of the file, not a move.
  return found.map((item) =>
    item.action === 'move' && !item.to ? { ...item, action: 'change' as const } : item,
  );
}

/**
 * The Coder's contract read from the request: the files it asks to create, change, delete,
 * move or leave alone, and the text it says a file must hold. Questions and reads ask for
 * nothing. Returns undefined when the request names no file with an action.
 */
export function parseCoderContract(task: string): StatedContract | undefined {
  // Quoted text is kept whole; clauses split on sentence ends, semicolons and "then" (", and then" too).
  const clauses = task.split(/(?<=[.!?;])\s+(?=[A-Z`"“])|\n+|;\s*|\s+then\s+/i);
  const files: FileRequirement[] = [];
  for (const clause of clauses) {
    if (/\?\s*$/.test(clause.trim())) continue;
    for (const item of clauseRequirements(clause))
      if (!files.some((seen) => seen.path === item.path && seen.action === item.action)) files.push(item);
  }
  if (files.length === 0) return undefined;
  return {
    description: files
      .map(
        (file) =>
          `${file.action} ${file.path}${file.to ? ` → ${file.to}` : ''}${file.contains !== undefined ? ` containing "${file.contains.slice(0, 40)}"` : ''}`,
      )
      .join('; '),
    data: { files } satisfies CoderContractData,
    words: files.flatMap((file) => [
      file.path,
      ...(file.to ? [file.to] : []),
      ...(file.contains ? [file.contains] : []),
    ]),
  };
}

async function canonical(resolver: ClaimResolver, spelling: string): Promise<string | undefined> {
  try {
    const keys = await resolver.canonical(spelling);
    return Array.isArray(keys) ? keys[0] : keys;
  } catch {
    return undefined;
  }
}

/** The file's net effect; a key in another Unicode form (NFC typed, NFD written) is the same file. */
function netOf(nets: NetEffects, key: string): NetEffect | undefined {
  const net = nets.get(`file:${key}`);
  if (net) return net;
  const nfc = key.normalize('NFC');
  return [...nets.values()].find((other) => other.space === 'file' && other.key.normalize('NFC') === nfc);
}

/** What a file requirement lacks at the end of the turn (undefined when met). */
async function unmetFile(
  file: FileRequirement,
  resolver: ClaimResolver,
  nets: NetEffects,
): Promise<string | undefined> {
  const key = await canonical(resolver, file.path);
  if (key === undefined) return `${file.path} was asked for, but it is not a path inside the project`;
  const net = netOf(nets, key);
  switch (file.action) {
    case 'keep':
      return net?.change ? `${key} was to be left alone, and this turn ${net.change} it` : undefined;
    case 'delete':
      return net?.change === 'deleted' ? undefined : `${key} was asked to be deleted, and it was not`;
    case 'move': {
      const to = file.to ? await canonical(resolver, file.to) : undefined;
      if (to === undefined) return `${file.to ?? '(no destination)'} is not a path inside the project`;
      // "move a.ts into lib/" names the folder: the file arrives as lib/a.ts.
      const name = key.split('/').at(-1) as string;
      const arrivedAt = [to, to === '' ? name : `${to}/${name}`];
      const arrived = arrivedAt.some((path) => {
        const change = netOf(nets, path)?.change;
        return change === 'created' || change === 'updated';
      });
      return net?.change === 'deleted' && arrived
        ? undefined
        : `${key} was asked to be moved to ${to}, and it was not`;
    }
    default: {
      if (net?.change !== 'created' && net?.change !== 'updated')
        return `${key} was asked to be ${file.action === 'create' ? 'created' : 'changed'}, and this turn did not ${file.action === 'create' ? 'write' : 'change'} it`;
      if (file.contains === undefined) return undefined;
      const now = await resolver.inspect?.(key);
      if (now?.content === undefined) return `the content of ${key} cannot be checked`;
      return now.content.includes(file.contains)
        ? undefined
        : `${key} does not contain the asked text "${file.contains.slice(0, 80)}"`;
    }
  }
}

/** The Coder's contract spec, bound to the turn's file resolver (the tools' own). */
export function coderContract(resolver: ClaimResolver): ContractSpec {
  return {
    fromRequest: parseCoderContract,
    check: async (contract: RequestContract, context) => {
      const { files } = contract.data as CoderContractData;
      const problems: string[] = [];
      for (const file of files) {
        const problem = await unmetFile(file, resolver, context.net);
        if (problem) problems.push(problem);
      }
      return problems;
    },
  };
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../../core/agent/ending.js';
import { runPlan } from '../../core/agent/run-plan.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { tokenize } from '../../packs/records/bm25.js';
import type { RecallHit } from '../../packs/records/recall.js';
import type { RecordRow, RecordSource } from '../../packs/records/record-query.js';
import { createScoutAgent, type ScoutFinish } from './scout-agent.js';

const STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'in',
  'on',
  'for',
  'and',
  'or',
  'how',
  'do',
  'i',
  'we',
  'is',
  'it',
  'with',
  'my',
  'our',
  'what',
  'should',
  'can',
]);

export interface ScoutOptions {
  goal: string;
  root: string;
  source: RecordSource;
  ledger: Ledger;
  /** Digests of earlier scout runs in this session (newest first). */
  priorDigests: string[];
  cwd?: string;
}

export interface ScoutReport {
  result: RunResult;
  text: string;
}

function repoFrom(
  goal: string,
  digests: string[],
  cwd: string | undefined,
): { repo?: string; from?: string } {
  const inGoal = /\b([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)\b/.exec(goal.replace(/\S+\.md\b/g, ''))?.[1];
  if (inGoal) return { repo: inGoal, from: 'goal' };
  for (const digest of digests) {
    const line = /^REPO: (\S+)/m.exec(digest)?.[1];
    if (line && line !== '(none)') return { repo: line, from: 'session digest' };
  }
  const gitConfig = cwd ? join(cwd, '.git', 'config') : undefined;
  if (gitConfig && existsSync(gitConfig)) {
    const url = /\[remote "origin"\][^[]*?url\s*=\s*(\S+)/.exec(readFileSync(gitConfig, 'utf8'))?.[1];
    const repo = url ? /[:/]([^/:]+\/[^/]+?)(\.git)?$/.exec(url)?.[1] : undefined;
    if (repo) return { repo, from: 'working directory' };
  }
  return {};
}

function block(title: string, lines: string[]): string {
  return `${title}:\n${lines.length > 0 ? lines.map((line) => `- ${line}`).join('\n') : '- (none)'}`;
}

/**
 * The scout without a model: warm start from this session's digests, recall first, keyword
 * probes only for the gaps, then ONE records_cat batch. Every call is in the ledger and the
 * report goes through the same verifier a model's would.
 */
export async function runDeterministicScout(options: ScoutOptions): Promise<ScoutReport> {
  const { goal, source } = options;
  const agent = createScoutAgent({ root: options.root, source });
  const established = new Set(
    options.priorDigests.flatMap((digest) =>
      [...digest.matchAll(/^- (\S+\.md) \[/gm)].map((match) => match[1] as string),
    ),
  );
  const { repo, from } = repoFrom(goal, options.priorDigests, options.cwd);
  const terms = [...new Set(tokenize(goal).filter((term) => !STOPWORDS.has(term) && term.length > 1))];
  const labels = new Map<string, string>();
  let traps: string[] = [];
  let unreachable: string[] = [];
  let notFound: string[] = [];
  let read: { path: string; content: string }[] = [];

  const result = await runPlan(
    agent,
    goal,
    async (call) => {
      const recalled = await call('records_recall', { terms: terms.join(' '), limit: 20 });
      const hits = ((recalled.result as { hits?: RecallHit[] } | undefined)?.hits ?? []) as RecallHit[];
      for (const hit of hits) if (hit.source === 'record') labels.set(hit.where, 'recall');
      traps = hits.map((hit) => `${hit.where} — ${hit.text}`);
      const recallText = hits.map((hit) => hit.text.toLowerCase()).join(' ');
      const gaps = terms.filter((term) => !recallText.includes(term));
      const probeTerms = gaps.length > 0 ? gaps : terms;
      let probed: RecordRow[] = [];
      if (probeTerms.length > 0) {
        const withProject = repo
          ? await call('records_query', { keyword: probeTerms.join(' '), project: repo, limit: 8 })
          : undefined;
        probed = ((withProject?.result as { records?: RecordRow[] } | undefined)?.records ??
          []) as RecordRow[];
        if (probed.length === 0) {
          const plain = await call('records_query', { keyword: probeTerms.join(' '), limit: 8 });
          probed = ((plain.result as { records?: RecordRow[] } | undefined)?.records ?? []) as RecordRow[];
        }
      }
      for (const row of probed)
        if (!labels.has(row.path)) labels.set(row.path, `keyword: ${probeTerms.join(' ')}`);
      const plausible = [...labels.keys()];
      if (plausible.length === 0) {
        notFound = terms;
        return { stop: `No record matches "${goal}" (terms: ${terms.join(', ') || 'none'}).` };
      }
      const cat = await call('records_cat', { paths: plausible });
      read = ((cat.result as { records?: { path: string; content: string }[] } | undefined)?.records ??
        []) as { path: string; content: string }[];
      // A record reachable by a link that no query returned is a retrieval bug: say so.
      const returned = new Set(plausible);
      const rows = source.rows();
      for (const path of plausible) {
        const row = rows.find((candidate) => candidate.path === path);
        for (const [store, ids] of Object.entries(row?.links ?? {})) {
          for (const id of ids) {
            const target = rows.find((candidate) => candidate.id === id);
            if (
              target &&
              !returned.has(target.path) &&
              !unreachable.some((line) => line.startsWith(target.path))
            ) {
              unreachable.push(
                `${target.path} (linked from ${path} as ${store}/${id}) — should have matched: records query --keyword "${target.keywords.join(' ')}"`,
              );
            }
          }
        }
      }
      const matchedText = read.map((record) => record.content.toLowerCase()).join('\n');
      notFound = terms.filter((term) => !matchedText.includes(term));
      const commands = [
        ...new Set(
          ((cat.evidence?.files as { commands: string[] }[] | undefined) ?? []).flatMap(
            (file) => file.commands,
          ),
        ),
      ];
      const finish: ScoutFinish = {
        summary: `${plausible.length} record(s) govern "${goal}".`,
        governs: plausible.map((path) => ({ path, label: labels.get(path) as string })),
        commands,
      };
      return { finish };
    },
    { ledger: options.ledger, meta: { goal, repo: repo ?? null, priorDigests: options.priorDigests.length } },
  );
  unreachable = [...new Set(unreachable)];
  const governs = result.verified.filter((item) => item.type === 'governs');
  const commands = result.verified.filter((item) => item.type === 'command').map((item) => item.target);
  const text = [
    `GOAL: ${goal}`,
    `REPO: ${repo ? `${repo} [from ${from}]` : '(none)'}`,
    block(
      'GOVERNS',
      governs.map(
        (item) =>
          `${item.target} [${String(item.label)}] ${established.has(item.target) ? 'already established' : 'newly found'}`,
      ),
    ),
    block('COMMANDS', commands),
    block('TRAPS', traps),
    block(
      'STANDING NOTES',
      options.priorDigests.length > 0
        ? [
            `${options.priorDigests.length} earlier digest(s) this session; a starting point, not coverage — the full search ran again.`,
          ]
        : [],
    ),
    block('UNREACHABLE', unreachable),
    block('NOT FOUND', notFound),
    ...(result.dropped.length > 0
      ? [
          block(
            'DROPPED (not backed by this run)',
            result.dropped.map((entry) => `${String(entry.claim.target)}: ${entry.why}`),
          ),
        ]
      : []),
  ].join('\n\n');
  return { result, text: `${text}\n` };
}

import type { CanonicalKeys, ClaimResolver } from '../claim-resolver.js';
import {
  changedUnderAnotherPath,
  changingStep,
  type EffectKind,
  effectsOf,
  type NetEffect,
  type NetEffects,
  netEffects,
} from '../effects.js';
import type { LedgerEntry } from '../ledger/entry.js';
import type { ToolCallData } from '../ledger/entry-schemas.js';
import type { Evidence } from '../tool.js';
import { sameType } from '../type-words.js';
import type { VerifiedItem } from './ending.js';

// The resolver is what a tool brings (core/tool.ts names it); it lives beside the tool so
// that tool.ts and this module do not import each other.
export type { CanonicalKeys, ClaimResolver } from '../claim-resolver.js';

/** What a claim says happened: an effect kind, or `changed` (created, updated or deleted). */
export type ClaimEffect = EffectKind | 'changed';

/**
 * Something the model says it did, in its own spelling: `created test 5001` is
 * `{ effect: 'created', type: 'test', target: '5001' }`; `updated ./src/a.ts` is
 * `{ effect: 'updated', target: './src/a.ts' }`. Type, title and content are the model's
 * words, checked against the evidence, never copied into a verified item.
 */
export interface Claim {
  target: string;
  effect?: ClaimEffect;
  type?: string;
  title?: string;
  /** Text the resource must contain at finish. */
  contains?: string;
  /** The resource's sha256 at finish (a prefix of at least 8 hex digits is enough). */
  sha256?: string;
  [key: string]: unknown;
}

export type ClaimVerdict =
  | { claim: Claim; verified: true; item: VerifiedItem }
  | {
      claim: Claim;
      verified: false;
      why: string;
      duplicate?: boolean;
      /** A duplicate's resource, as the claim it repeats resolved it (`tally verify` re-checks it by this key). */
      resource?: string;
    };

/** A successful tool call of this run, as read back from the ledger. */
export interface EvidenceCall {
  seq: number;
  tool: string;
  target: string;
  input: unknown;
  result: unknown;
  evidence: Evidence;
  readOnly: boolean;
}

export interface EvidenceView {
  runId: string;
  /** Successful tool calls of THIS run, oldest first. */
  calls: EvidenceCall[];
  /** This run's net effects, folded from the ledger. */
  net: NetEffects;
}

/** Maps each claim to ledger evidence from this run. Must not trust anything the model wrote. */
export type ClaimVerifier = (claims: Claim[], view: EvidenceView) => ClaimVerdict[] | Promise<ClaimVerdict[]>;

function evidenceOf(evidence: ToolCallData['evidence']): Evidence {
  if (!evidence) return {};
  const { effects, ...rest } = evidence;
  return effects ? { ...rest, effects: effectsOf(evidence) } : rest;
}

export function evidenceView(
  runId: string,
  entries: LedgerEntry[],
  readOnlyTools: Set<string>,
): EvidenceView {
  const calls: EvidenceCall[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'tool_call' || entry.outcome !== 'ok') continue;
    const data = entry.data;
    const tool = String(data.tool);
    calls.push({
      seq: entry.seq,
      tool,
      target: String(data.target),
      input: data.input,
      result: data.result,
      // Only well-formed effects: a claim is matched against what the system observed.
      evidence: evidenceOf(data.evidence),
      readOnly: readOnlyTools.has(tool),
    });
  }
  return { runId, calls, net: netEffects(entries) };
}

/** A verified item built from the evidence alone: type, title and facts are the system's. */
export function itemFromNet(net: NetEffect, readClaim = false): VerifiedItem {
  const step = readClaim
    ? [...net.history].reverse().find((candidate) => candidate.kind === 'read')
    : changingStep(net);
  const title = net.observed.title;
  return {
    target: net.id ?? net.key,
    resource: net.key,
    space: net.space,
    effect: readClaim ? 'read' : (net.change ?? 'read'),
    ...(net.type ? { type: net.type } : {}),
    ...(typeof title === 'string' ? { title } : {}),
    via:
      step?.reconciledFrom !== undefined
        ? `${step.reconciledFrom}, found by ${step.via}`
        : (step?.via ?? '(no step)'),
    evidenceSeq: step?.seq ?? 0,
    ...(step?.reconciledFrom !== undefined ? { reconciled: true } : {}),
  };
}

export interface EffectVerifierOptions {
  /** Effect assumed when a claim names none: an agent that only creates says `created`. Default `changed`. */
  defaultEffect?: ClaimEffect;
  /** Canonicalizers of the agent's tools, tried in order. */
  resolvers?: ClaimResolver[];
}

const normalizeText = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * A claimed title matches the observed one, or the observed one without the run's marker at
 * its end (`Smoke · 3fa9c1` → `Smoke`) when the tool that saw it recorded the marker
 * (`observed.titleMarker`): the marker is the system's stamp, not the agent's words.
 */
function titleMatches(claimed: string, observed: string, marker: unknown): boolean {
  const want = normalizeText(claimed);
  if (want === normalizeText(observed)) return true;
  const rest = withoutMarker(observed, marker);
  return rest !== undefined && want === normalizeText(rest);
}

/**
 * The observed title without the run's marker at its end (`Smoke · 3fa9c1` → `Smoke`), or
 * undefined when it does not end in the marker (or the marker is unknown).
 */
export function withoutMarker(observed: string, marker: unknown): string | undefined {
  if (typeof marker !== 'string' || marker === '') return undefined;
  const trimmed = observed.trimEnd();
  if (!trimmed.endsWith(marker)) return undefined;
  // Separators (middle dot, bullet, dashes) as \u escapes: the CLI bundle stays ASCII.
  const rest = trimmed.slice(0, -marker.length).replace(/[\s\u00b7\u2022|:,\u2013\u2014-]+$/u, '');
  return rest === '' ? undefined : rest;
}

function describe(net: NetEffect): string {
  return `${net.type ? `${net.type} ` : ''}${net.id ?? net.key}${net.id !== undefined && net.id !== net.key ? ` (${net.key})` : ''}`;
}

function spellingOf(net: NetEffect, effect: string): string {
  return `${effect} ${net.type ? `${net.type} ` : ''}${net.id ?? net.key}`;
}

function effectMatches(want: ClaimEffect, net: NetEffect): boolean {
  if (want === 'read') return net.read;
  if (want === 'changed') return net.change !== undefined;
  return net.change === want;
}

/** Why a resource's net effect does not support the claimed one. */
function mismatch(want: ClaimEffect, net: NetEffect): string {
  const name = describe(net);
  const created = net.history.find((step) => step.kind === 'created');
  const removed = [...net.history].reverse().find((step) => step.kind === 'deleted');
  if (net.change === undefined && created && removed) {
    return `${name} was created (ledger #${created.seq}) and later ${removed.movedTo ? `moved to ${removed.movedTo}` : 'deleted'} (ledger #${removed.seq}): nothing this run made is left there${removed.movedTo ? `; claim ${removed.movedTo} instead` : ''}`;
  }
  if (net.change === undefined) {
    return want === 'read'
      ? `${name} was not read in this run`
      : `${name} was only read in this run, never ${want === 'changed' ? 'changed' : want}; a read proves nothing was made`;
  }
  if (want === 'read') return `${name} was ${net.change} in this run, not read with a reading tool`;
  if (net.change === 'deleted' && removed?.movedTo)
    return `${name} was moved away to ${removed.movedTo} in this run, not ${want}; claim ${removed.movedTo} instead`;
  return `${name} was ${net.change} in this run, not ${want} (claim "${spellingOf(net, net.change)}")`;
}

const lastSegment = (text: string) => text.split(/[/\\]/).filter(Boolean).at(-1) ?? text;

/** Resources of this run whose name ends like the claim's: the spellings that would have matched. */
function nearSpellings(target: string, nets: NetEffects, want: ClaimEffect): string[] {
  const tail = lastSegment(target.trim());
  if (!tail) return [];
  return [...nets.values()]
    .filter((net) => lastSegment(net.key) === tail && effectMatches(want, net))
    .slice(0, 3)
    .map((net) => spellingOf(net, want === 'read' ? 'read' : (net.change ?? 'read')));
}

async function candidatesFor(
  claim: Claim,
  nets: NetEffects,
  resolvers: ClaimResolver[],
): Promise<{ candidates: NetEffect[]; canonical?: string; otherTypes: NetEffect[] }> {
  const target = String(claim.target).trim();
  let canonical: string | undefined;
  for (const resolver of resolvers) {
    let keys: CanonicalKeys;
    try {
      keys = await resolver.canonical(target);
    } catch (error) {
      // A spelling the resolver refuses (outside the project, a NUL byte) names nothing here.
      if (!(error instanceof Error)) throw error;
      keys = undefined;
    }
    for (const key of keys === undefined ? [] : Array.isArray(keys) ? keys : [keys]) {
      canonical ??= key;
      const net = nets.get(`${resolver.space}:${key}`);
      if (net) return { candidates: [net], canonical: key, otherTypes: [] };
    }
  }
  const all = [...nets.values()];
  const byKey = all.filter((net) => net.key === target);
  if (byKey.length > 0) return { candidates: byKey, otherTypes: [] };
  const byId = all.filter((net) => net.id !== undefined && net.id === target);
  if (!claim.type) return { candidates: byId, ...(canonical ? { canonical } : {}), otherTypes: [] };
  const typed = byId.filter((net) => !net.type || sameType(claim.type as string, net.type));
  return {
    candidates: typed,
    ...(canonical ? { canonical } : {}),
    otherTypes: byId.filter((net) => !typed.includes(net)),
  };
}

async function checkContent(
  claim: Claim,
  net: NetEffect,
  resolvers: ClaimResolver[],
): Promise<string | undefined> {
  if (claim.contains === undefined && claim.sha256 === undefined) return undefined;
  const resolver = resolvers.find((candidate) => candidate.space === net.space && candidate.inspect);
  const now = resolver?.inspect ? await resolver.inspect(net.key) : undefined;
  const sha256 = now?.sha256 ?? (typeof net.observed.sha256 === 'string' ? net.observed.sha256 : undefined);
  if (claim.sha256 !== undefined) {
    const claimed = String(claim.sha256)
      .toLowerCase()
      .replace(/^sha256[:=]/, '');
    if (!sha256) return `the content of ${describe(net)} cannot be checked: no hash was observed`;
    if (claimed.length < 8 || !sha256.startsWith(claimed))
      return `${describe(net)} has sha256 ${sha256.slice(0, 12)} at finish, not the claimed ${claimed.slice(0, 12)}`;
  }
  if (claim.contains !== undefined) {
    const content =
      now?.content ?? (typeof net.observed.content === 'string' ? net.observed.content : undefined);
    if (content === undefined) return `the content of ${describe(net)} cannot be checked here`;
    if (!content.includes(String(claim.contains)))
      return `${describe(net)} does not contain the claimed text "${String(claim.contains).slice(0, 80)}" at finish`;
  }
  return undefined;
}

/**
 * The verifier of the effect model: each claim is canonicalized, matched to this run's net
 * effects by effect kind and resource, checked against the evidence's type, title and
 * content, and reported with facts from the evidence. Duplicates collapse to one item.
 */
export function verifyAgainstEffects(options: EffectVerifierOptions = {}): ClaimVerifier {
  const resolvers = options.resolvers ?? [];
  const defaultEffect = options.defaultEffect ?? 'changed';
  return async (claims, view) => {
    const verdicts: ClaimVerdict[] = [];
    const seen = new Map<string, number>();
    for (const claim of claims) {
      const want = claim.effect ?? defaultEffect;
      const { candidates, canonical, otherTypes } = await candidatesFor(claim, view.net, resolvers);
      const matching = candidates.filter((net) => effectMatches(want, net));
      const pool = matching.length > 0 ? matching : candidates;
      if (pool.length === 0) {
        const spelled = canonical && canonical !== claim.target ? ` (${canonical})` : '';
        const other = otherTypes.find((net) => effectMatches(want, net)) ?? otherTypes[0];
        const near = other ? [] : nearSpellings(String(claim.target), view.net, want);
        const why = other
          ? `substitution: a ${claim.type} was claimed, but ${claim.target} is ${describe(other)}${changingStep(other) ? `, from ${changingStep(other)?.via}` : ''}; claim "${spellingOf(other, other.change ?? 'read')}" if that is what you meant`
          : `this run has no effect on ${claim.type ? `${claim.type} ` : ''}${claim.target}${spelled}${near.length > 0 ? `; did you mean ${near.map((spelling) => `"${spelling}"`).join(' or ')}?` : ''}`;
        verdicts.push({ claim, verified: false, why });
        continue;
      }
      if (pool.length > 1) {
        verdicts.push({
          claim,
          verified: false,
          why: `ambiguous: ${claim.target} names ${pool.length} resources (${pool.map((net) => `"${spellingOf(net, net.change ?? 'read')}"`).join(', ')}); name the type`,
        });
        continue;
      }
      const net = pool[0] as NetEffect;
      if (!effectMatches(want, net)) {
        verdicts.push({ claim, verified: false, why: mismatch(want, net) });
        continue;
      }
      if (claim.type && net.type && !sameType(claim.type, net.type)) {
        verdicts.push({
          claim,
          verified: false,
          why: `substitution: a ${claim.type} was claimed, but ${net.id ?? net.key} is a ${net.type} (${changingStep(net)?.via ?? net.key})`,
        });
        continue;
      }
      const alias = want === 'read' ? undefined : changedUnderAnotherPath(net, view.net)[0];
      if (alias) {
        const step = changingStep(alias);
        verdicts.push({
          claim,
          verified: false,
          why: `${describe(net)} was ${net.change} here, but this run later ${alias.change} ${describe(alias)}${step ? ` (ledger #${step.seq})` : ''}, the same ${net.type} ${net.id} under another path: what ${net.key} holds now is not what the ledger saw`,
        });
        continue;
      }
      const observedTitle = net.observed.title;
      if (
        claim.title !== undefined &&
        typeof observedTitle === 'string' &&
        !titleMatches(String(claim.title), observedTitle, net.observed.titleMarker)
      ) {
        verdicts.push({
          claim,
          verified: false,
          why: `title mismatch: claimed "${String(claim.title)}", but ${describe(net)} is titled "${observedTitle}"`,
        });
        continue;
      }
      const contentProblem = await checkContent(claim, net, resolvers);
      if (contentProblem) {
        verdicts.push({ claim, verified: false, why: contentProblem });
        continue;
      }
      const identity = `${net.space}:${net.key}:${want === 'read' ? 'read' : 'change'}`;
      const earlier = seen.get(identity);
      if (earlier !== undefined) {
        verdicts.push({
          claim,
          verified: false,
          duplicate: true,
          resource: net.key,
          why: `duplicate: ${describe(net)} was already claimed (claim ${earlier + 1}); counted once`,
        });
        continue;
      }
      seen.set(identity, verdicts.length);
      verdicts.push({ claim, verified: true, item: itemFromNet(net, want === 'read') });
    }
    return verdicts;
  };
}

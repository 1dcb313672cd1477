import { changingStep, type NetEffect, type NetEffects } from '../../core/effects.js';
import type { FileChange } from './chat-record.js';

const SHA_PREFIX = 12;

function observedFacts(net: NetEffect): { bytes?: number; sha256?: string } {
  const { bytes, sha256 } = net.observed;
  return {
    ...(typeof bytes === 'number' ? { bytes } : {}),
    ...(typeof sha256 === 'string' ? { sha256: sha256.slice(0, SHA_PREFIX) } : {}),
  };
}

/**
 * The files a turn changed, from its net effects alone (never from the model's words):
 * one row per file that differs at the end of the turn. A move is folded back into one
 * row at the destination (`moved`, `from`); a move whose destination is gone again is a
 * plain delete of the source. Created-then-deleted files do not appear.
 */
export function changesReport(nets: NetEffects): FileChange[] {
  const files = [...nets.values()].filter((net) => net.space === 'file' && net.change !== undefined);
  const byKey = new Map(files.map((net) => [net.key, net]));
  const movedFrom = new Map<string, string>();
  for (const net of files) {
    const destination = net.change === 'deleted' ? changingStep(net)?.movedTo : undefined;
    if (destination && byKey.get(destination)?.change !== 'deleted' && byKey.has(destination))
      movedFrom.set(destination, net.key);
  }
  const movedSources = new Set(movedFrom.values());
  const rows: FileChange[] = [];
  for (const net of files) {
    if (movedSources.has(net.key)) continue;
    const via = changingStep(net)?.via ?? '';
    const from = movedFrom.get(net.key);
    if (from) rows.push({ path: net.key, change: 'moved', from, ...observedFacts(net), via });
    else if (net.change === 'deleted') rows.push({ path: net.key, change: 'deleted', via });
    else
      rows.push({ path: net.key, change: net.change as 'created' | 'updated', ...observedFacts(net), via });
  }
  // Code-point order: the same on every machine and locale.
  return rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether a turn's net effects changed the layout (a file appeared, vanished or moved). */
export function layoutSignature(nets: NetEffects): string {
  return [...nets.values()]
    .filter((net) => net.space === 'file' && (net.change === 'created' || net.change === 'deleted'))
    .map((net) => `${net.change}:${net.key}`)
    .sort()
    .join('\n');
}

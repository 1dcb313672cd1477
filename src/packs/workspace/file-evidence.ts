import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface FileEvidence {
  bytes: number;
  sha256: string;
}

/** Bytes and sha256 of what is on disk now — read back, never computed from the input. */
export async function readBackEvidence(absolute: string): Promise<FileEvidence> {
  const data = readFileSync(absolute);
  return { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

export function evidenceVia(tool: string, relative: string, evidence: FileEvidence): string {
  return `${tool} ${relative} sha256=${evidence.sha256.slice(0, 12)} (${evidence.bytes} bytes)`;
}

import type { EffectRechecker } from '../../core/recheck-effects.js';
import { fileRechecker } from '../workspace/recheck-file.js';

/** Records a run read (its answer rests on them) must still hold the sha256 `records_cat` observed. */
export function recordRechecker(recordsRoot: string): EffectRechecker {
  return fileRechecker(recordsRoot, 'record', true);
}

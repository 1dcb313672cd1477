import type { Scenario } from '../scenario.js';
import { cleanupScenarios } from './cleanup.js';
import { coderScenarios } from './coder.js';
import { coreScenarios } from './core.js';
import { fishermanDeterministicScenarios } from './fisherman-deterministic.js';
import { fishermanLiesScenarios } from './fisherman-lies.js';
import { fishermanModelScenarios } from './fisherman-model.js';
import { scoutScenarios } from './scout.js';
import { workspaceScenarios } from './workspace.js';

/** Every scenario of the truth suite, in group order. */
export const allScenarios: Scenario[] = [
  ...coreScenarios,
  ...fishermanModelScenarios,
  ...fishermanLiesScenarios,
  ...fishermanDeterministicScenarios,
  ...workspaceScenarios,
  ...scoutScenarios,
  ...cleanupScenarios,
  ...coderScenarios,
];

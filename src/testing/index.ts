export { type AimockMock, type AimockServer, startAimock } from './aimock.js';
export {
  PROBE_LIES,
  type ProbeLie,
  type ProbeLieReport,
  type ProbeOptions,
  type ProbeReport,
  type ProbeRun,
  probeAgent,
} from './probe-agent.js';
export {
  callTool,
  callTools,
  ScriptedModel,
  type ScriptedToolCall,
  ScriptMismatchError,
  type ScriptStep,
  say,
  scriptedModel,
} from './scripted-model.js';

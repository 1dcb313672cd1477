export { type AimockMock, type AimockServer, startAimock } from './aimock.js';
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

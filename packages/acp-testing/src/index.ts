// The ACP test harness package: the harness that drives the bridge through the SDK's own
// client in memory (`createAcpHarness`), the frame recorder and in-memory pipes, and the check
// of every frame an agent writes against the ACP JSON schema. For tests; not for product code.
export { createAcpHarness } from './harness'
export type { AcpHarness } from './harness'
export type { AcpHarnessOptions, OpenAiModelOptions } from './harness-stack'
export { HarnessClient, choose } from './client'
export { HarnessEditor } from './editor'
export type { HarnessEditorOptions } from './editor'
export type { PermissionAnswerer } from './client'
export { FramePipes, FrameRecorder } from './frames'
export type { AcpFrame, AcpSide } from './frames'
export { agentFrameProblems, assertAgentFramesValid, knowsMethod } from './schema'
export type { AcpSchemaChoice } from './schema'

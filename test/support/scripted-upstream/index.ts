export { startScriptedUpstream, type ReplyScript, type ScriptedUpstream } from './scripted-upstream.js';
export { json, pause, type AnswerReply, type Pause, type RelayReply, type Reply, type ResetReply } from './reply.js';
export type { ReceivedRequest, SentAnswer } from './received-request.js';
export { closedPortUrl } from './closed-port.js';
export { askedForStream, faultReply, wireOf, type Fault, type UpstreamWire } from './fault-reply.js';
export { caseClosedEarlyAt, pacedStreams, type PacedStream } from './paced-streams.js';
export { isGenerationCall, startSimulatorUpstream, untilGenerationCalls, type SimulatorUpstream } from './simulator-upstream.js';
export { askedId, meteredReply, type AskedUsage } from './metered-reply.js';
export { azureOperation, azureReply, type AzureChecks, type AzureOperation } from './azure-reply.js';

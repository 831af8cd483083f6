/** The webhook payload template language: analysis, completion, hover, diagnostics and rendering. */
export { analysePayload, maxAnalysedLength, referenceAt, stringAt, tooLargeAnalysis, type AnalysisLimit, type PayloadAnalysis, type PayloadDocumentKind } from './analysis';
export { automationEventType, type AutomationFields } from './automation';
export { complete, type PayloadCompletionItem, type PayloadCompletions } from './completion';
export { completeAfterEdit } from './editedCompletion';
export type { PayloadContext, WebhookSecretNames } from './context';
export { diagnose, type DiagnosticCode, type PayloadDiagnostic } from './diagnostics';
export { describeEvent, eventTypes, isEventType, isRunEvent, type EventType } from './events';
export { hover, type PayloadHover } from './hover';
export { metadataKeysIn } from './metadataKeys';
export { maskedSecret, renderPayload, type RenderedPayload } from './render';
export { resolveName } from './resolve';
export { defaultSampleEvent, sampleEventWith, type SampleEvent, type SampleOverrides } from './sample';
export { payloadTemplates, templateText, type TemplateId } from './templates';
export { alertVariables, lookupVariable, plainVariables, type VariableInfo, type VariableScope } from './variables';

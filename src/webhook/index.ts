/** Webhooks: signing, test sends, reports and the local receiver. No editor API in here. */
export { adviceForFailure, adviceForStatus } from './advice';
export { findWebhook, validateEndpointUrl, validateSecretName, validateWebhookName, type Webhook, type WebhookCredentials } from './model';
export { describeVerdict, formatReceivedRequest } from './receivedReport';
export { startReceiver, type LocalReceiver, type ReceivedRequest, type ReceiverOptions, type SignatureVerdict } from './receiver';
export { formatTestReport } from './report';
export { sendTest, type RawSend, type TestSendResult } from './send';
export { signatureHeader, signPayload, verifySignature } from './signature';

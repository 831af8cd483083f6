import { redactSecrets } from '../../platform/client/redact';
import { escapeForOneLine, quoted, urlLines } from '../../platform/kit/confirmationText';

/** What a webhook test sends, as its confirmation names it. */
export interface TestSendPlan {
  webhook: string;
  /** The endpoint exactly as it is sent to. */
  url: string;
  /** The URL's own tokens and the credentials: masked in the address shown, never in the host. */
  secrets: readonly string[];
  /** Which payload: a file's workspace path, or the generic sample. */
  payload: string;
  sampleEvent: string;
  bodyBytes: number;
  carriesAccessToken: boolean;
  /** The name of the signing secret, when the request is signed. */
  signedWith: string | undefined;
  /** Variables the rendering left as written: unknown ones, or secrets with no stored value. */
  unresolved?: readonly string[];
}

/** Variables named in the confirmation at most; the rest are counted. */
const namedUnresolved = 20;

/**
 * The modal confirmation of "Send test": the webhook, the endpoint's whole host on a line of its
 * own (a long path cannot push it out of sight), the payload and its size, and which of the
 * webhook's credentials go with it. The address's own tokens are masked; its host never is.
 */
export function sendTestConfirmation(plan: TestSendPlan): { message: string; detail: string; action: string } {
  const [hostLine, addressLine] = urlLines('Endpoint', plan.url);
  const carries = [plan.carriesAccessToken ? 'the access token (Authorization: Bearer)' : '', plan.signedWith ? `a signature made with the secret ${quoted(plan.signedWith)}` : ''].filter(Boolean);
  return {
    message: `Send a test request to the webhook ${quoted(plan.webhook)}${plan.unresolved?.length ? `, with ${plan.unresolved.length} variable${plan.unresolved.length === 1 ? '' : 's'} left unrendered` : ''}?`,
    detail: [
      hostLine!,
      redactSecrets(addressLine!, plan.secrets),
      `Payload: ${escapeForOneLine(plan.payload)}, rendered with the ${escapeForOneLine(plan.sampleEvent)} sample event (${plan.bodyBytes.toLocaleString('en-US')} bytes).`,
      carries.length > 0 ? `It carries ${carries.join(' and ')}.` : 'It carries no credential of the webhook.',
      ...unresolvedLines(plan.unresolved ?? []),
      'Exactly this rendering is sent; if the payload file changes before it is sent, nothing is sent.',
    ].join('\n'),
    action: 'Send Test',
  };
}

/** Says which variables go out as written, `${name}` and all: the endpoint receives them as text. */
function unresolvedLines(names: readonly string[]): string[] {
  if (names.length === 0) return [];
  const shown = names.slice(0, namedUnresolved).map((name) => quoted(`\${${name}}`, 80));
  const more = names.length > namedUnresolved ? ` and ${names.length - namedUnresolved} more` : '';
  return [`Not rendered, sent as written: ${shown.join(', ')}${more} (unknown variables, or secrets with no stored value).`];
}

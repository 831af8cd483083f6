/** What to check after a failed webhook test (specification 4.4: check the configuration, test again). */
import type { FailureKind } from '../../platform/client/describeFailure';
import type { ConnectionProblem } from '../../platform/client/errors';

export interface SendFailure {
  /** describeFailure's reason: the advice follows it, never the message's words. */
  kind: FailureKind;
  connection?: ConnectionProblem;
  /** The client's account of the failure, for the report. */
  message: string;
}

export function adviceForStatus(status: number): string[] {
  if (status >= 200 && status < 300) return [];
  if (status === 401 || status === 403) {
    return [
      "The endpoint refused the credentials: check the webhook's access token (sent in the Authorization header as a bearer token).",
      "If the endpoint checks X-Service-Signature, check that the webhook's secret equals the one the endpoint expects.",
    ];
  }
  if (status === 404 || status === 410) return ['The endpoint does not exist: check the path of the endpoint URL.'];
  if (status === 405) return ['The endpoint does not accept POST: check that the URL is the receiving endpoint, not a web page.'];
  if (status === 400 || status === 422) {
    return [
      'The endpoint rejected the payload: check the shape it expects (for a repository dispatch, event_type must be a type the workflow lists).',
      'Open the preview to see exactly what was sent.',
    ];
  }
  if (status === 413) return ['The payload is too large for the endpoint.'];
  if (status === 429) return ['The endpoint is rate limiting: wait and test again.'];
  if (status >= 500) return ["The endpoint failed while handling the request: check the receiving service's logs, then test again."];
  if (status >= 300 && status < 400) return ['The endpoint answered with a redirect: use the final address as the endpoint URL.'];
  return ["Check the endpoint URL and the webhook's credentials, then test again."];
}

export function adviceForFailure(failure: SendFailure): string[] {
  if (failure.kind === 'not-configured') return ['Check the endpoint URL: it must be a full http:// or https:// address.'];
  if (failure.kind === 'cancelled') return ['The test was cancelled.'];
  if (failure.kind === 'timeout') return ['The endpoint did not answer in time: check that it is reachable and not overloaded, then test again.'];
  switch (failure.connection) {
    case 'refused':
      return ['Nothing is listening at that address: check the host and port of the endpoint URL and that the receiving service is running.'];
    case 'unknown-host':
      return ['The host name does not resolve: check the spelling of the endpoint URL and your network or proxy.'];
    case 'host-unreachable':
      return ['The host cannot be reached from this machine: check the network, VPN or firewall.'];
    case 'tls':
      return ['The TLS handshake failed: check that the endpoint serves a valid certificate, and whether it expects http:// rather than https://.'];
    default:
      return ['Check the endpoint URL and that the receiving service is reachable, then test again.'];
  }
}

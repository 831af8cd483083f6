/** What to check after a failed webhook test (specification 4.4: check the configuration, test again). */

export interface SendFailure {
  kind?: string;
  message: string;
}

export function adviceForStatus(status: number): string[] {
  if (status >= 200 && status < 300) return [];
  if (status === 401 || status === 403) {
    return [
      'The endpoint refused the credentials: check the webhook\'s access token (sent in the Authorization header as a bearer token).',
      'If the endpoint checks X-Service-Signature, check that the webhook\'s secret equals the one the endpoint expects.',
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
  if (status >= 500) return ['The endpoint failed while handling the request: check the receiving service\'s logs, then test again.'];
  if (status >= 300 && status < 400) return ['The endpoint answered with a redirect: use the final address as the endpoint URL.'];
  return ['Check the endpoint URL and the webhook\'s credentials, then test again.'];
}

export function adviceForFailure(failure: SendFailure): string[] {
  const message = failure.message;
  if (failure.kind === 'not-configured') return ['Check the endpoint URL: it must be a full http:// or https:// address.'];
  if (failure.kind === 'aborted') return ['The test was cancelled.'];
  if (/connection refused/.test(message)) {
    return ['Nothing is listening at that address: check the host and port of the endpoint URL and that the receiving service is running.'];
  }
  if (/could not find the host/.test(message)) return ['The host name does not resolve: check the spelling of the endpoint URL and your network or proxy.'];
  if (/host unreachable/.test(message)) return ['The host cannot be reached from this machine: check the network, VPN or firewall.'];
  if (/secure connection/.test(message)) {
    return ['The TLS handshake failed: check that the endpoint serves a valid certificate, and whether it expects http:// rather than https://.'];
  }
  if (failure.kind === 'timeout') return ['The endpoint did not answer in time: check that it is reachable and not overloaded, then test again.'];
  return ['Check the endpoint URL and that the receiving service is reachable, then test again.'];
}

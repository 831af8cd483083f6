/**
 * A team webhook (specification 2.3) as the extension keeps it: its name and the masked form of its
 * endpoint here; the endpoint URL, the access token and the secret value in the editor's secret
 * storage (a hook URL often carries a token in its path).
 */
export interface Webhook {
  /** Stable identifier, also the key of its stored secret values. */
  id: string;
  name: string;
  /** The endpoint as shown: origin and masked path (see endpointForDisplay). Never the URL itself. */
  endpoint: string;
  /** The team that owns the webhook, as automations name it. */
  team?: string;
  hasAccessToken: boolean;
  /** Name of the webhook's secret, as payloads reference it: `${NAME}`. At most one. */
  secretName?: string;
}

/** The values a send needs besides the URL; never persisted outside secret storage. */
export interface WebhookCredentials {
  accessToken?: string;
  secret?: string;
}

export function validateWebhookName(name: string, others: readonly Webhook[], selfId?: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'A webhook needs a name.';
  if (others.some((other) => other.id !== selfId && other.name === trimmed)) return `A webhook named "${trimmed}" already exists.`;
  return undefined;
}

export function validateEndpointUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'Enter a full address such as https://example.com/hooks/deploy.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The endpoint must start with http:// or https://.';
  return undefined;
}

export function validateSecretName(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'A secret needs a name.';
  if (trimmed === 'ACCESS_TOKEN') return "ACCESS_TOKEN is the access token's own variable; give the secret another name.";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(trimmed)) return 'Use letters, digits and underscores, starting with a letter, such as DEPLOY_SECRET.';
  return undefined;
}

/** The webhook an automation names, preferring one of its owning team when names repeat across teams. */
export function findWebhook(webhooks: readonly Webhook[], name: string, team?: string): Webhook | undefined {
  const named = webhooks.filter((webhook) => webhook.name === name);
  return named.find((webhook) => team !== undefined && webhook.team === team) ?? named.find((webhook) => !webhook.team || team === undefined) ?? named[0];
}

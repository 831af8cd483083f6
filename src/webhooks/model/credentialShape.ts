/**
 * Whether a header value looks like a credential by its shape alone, whatever the header is
 * called: a sender can put a token under any name (`x-custom-pat`), and a display that masks only
 * the names it knows shows that token in full. Erring toward masking is the point: a request id
 * or a trace id that happens to look random is hidden too, which costs a person little, while a
 * token shown once is leaked.
 */

/**
 * Token prefixes of well-known services, each followed by at least 10 token characters: GitHub
 * (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), OpenAI and Anthropic style `sk-`, Stripe
 * (`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`), Slack (`xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`,
 * `xapp-`), AWS access key ids (`AKIA`, `ASIA`), GitLab (`glpat-`), Hugging Face (`hf_`), npm
 * (`npm_`), PyPI (`pypi-`), Google (`AIza`, `ya29.`), Shopify (`shpat_`), DigitalOcean (`dop_v1_`),
 * SendGrid (`SG.`). A prefix counts only at the start of a word.
 */
const tokenPrefix =
  /(?:^|[^A-Za-z0-9])((?:gh[pousr]_|github_pat_|sk-|sk_live_|sk_test_|rk_live_|rk_test_|xox[abpr]-|xapp-|AKIA|ASIA|glpat-|hf_|npm_|pypi-|AIza|ya29\.|shpat_|dop_v1_|SG\.)[A-Za-z0-9_\-.]{10,})/g;

/** A JSON Web Token: three base64url parts, the header a JSON object (`eyJ` is `{"` encoded). */
const jsonWebToken = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;

/** An HTTP auth scheme with its credentials: `Bearer …`, `Basic …`, `Token …`, `Digest …`. */
const authScheme = /^\s*(?:bearer|basic|token|digest)\s+\S/i;

/** A run of base64 or base64url characters this long (24 characters carry 18 random bytes). */
const base64Run = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
/** A run of hex digits this long (32 digits carry 16 random bytes). */
const hexRun = /[0-9a-fA-F]{32,}/g;
/** A UUID is an identifier, not a secret: a delivery id stays readable. */
const uuid = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** At most this many characters of one value are examined: every pattern above is linear, and a longer value is masked whole. */
const examinedChars = 64 * 1024;

export function looksLikeCredential(value: string): boolean {
  return value.length > examinedChars || credentialParts(value).length > 0;
}

/**
 * The parts of a value that look like a credential: each token with a known prefix, each JWT, the
 * credentials after an auth scheme, each long hex run, and the random-looking pieces of each long
 * base64 run (split at `/`, so the words of a path around a token are not taken for it). These
 * are what a display masks wherever else they occur, such as a body that echoes the header.
 */
export function credentialParts(value: string): string[] {
  if (value.length > examinedChars) return [value];
  const parts = new Set<string>();
  for (const match of value.matchAll(tokenPrefix)) parts.add(match[1]!);
  for (const [jwt] of value.matchAll(jsonWebToken)) parts.add(jwt);
  if (authScheme.test(value)) parts.add(value.trim().replace(/^\S+\s+/, ''));
  for (const [run] of value.matchAll(hexRun)) parts.add(run);
  for (const [run] of value.matchAll(base64Run)) {
    // Words joined by dashes or slashes ("x-www-form-urlencoded") are not random: a secret mixes letters and digits.
    if (!randomLooking(run) || uuid.test(run)) continue;
    const pieces = run.split('/').filter((piece) => piece.length >= 8 && randomLooking(piece));
    for (const piece of pieces.length > 0 ? pieces : [run]) parts.add(piece);
  }
  return [...parts];
}

function randomLooking(text: string): boolean {
  return /[0-9]/.test(text) && /[A-Za-z]/.test(text);
}

/** The auth scheme a masked value keeps in view (`Bearer`), if it starts with one. */
export function authSchemeOf(value: string): string | undefined {
  return /^\s*(bearer|basic|token|digest)\s+\S/i.exec(value)?.[1];
}

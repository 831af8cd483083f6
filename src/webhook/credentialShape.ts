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
  /(?:^|[^A-Za-z0-9])(?:gh[pousr]_|github_pat_|sk-|sk_live_|sk_test_|rk_live_|rk_test_|xox[abpr]-|xapp-|AKIA|ASIA|glpat-|hf_|npm_|pypi-|AIza|ya29\.|shpat_|dop_v1_|SG\.)[A-Za-z0-9_\-.]{10}/;

/** A JSON Web Token: three base64url parts, the header a JSON object (`eyJ` is `{"` encoded). */
const jsonWebToken = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/;

/** An HTTP auth scheme with its credentials: `Bearer …`, `Basic …`, `Token …`, `Digest …`. */
const authScheme = /^\s*(?:bearer|basic|token|digest)\s+\S/i;

/** A run of base64 or base64url characters this long (24 characters carry 18 random bytes). */
const base64Run = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
/** A run of hex digits this long (32 digits carry 16 random bytes). */
const hexRun = /[0-9a-fA-F]{32,}/;
/** A UUID is an identifier, not a secret: a delivery id stays readable. */
const uuid = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** At most this many characters of one value are examined: every pattern above is linear, and a longer value is masked whole. */
const examinedChars = 64 * 1024;

export function looksLikeCredential(value: string): boolean {
  if (value.length > examinedChars) return true;
  if (tokenPrefix.test(value) || jsonWebToken.test(value) || authScheme.test(value) || hexRun.test(value)) return true;
  for (const [run] of value.matchAll(base64Run)) {
    // Words joined by dashes or slashes ("x-www-form-urlencoded") are not random: a secret mixes letters and digits.
    if (/[0-9]/.test(run) && /[A-Za-z]/.test(run) && !uuid.test(run)) return true;
  }
  return false;
}

/** The auth scheme a masked value keeps in view (`Bearer`), if it starts with one. */
export function authSchemeOf(value: string): string | undefined {
  return /^\s*(bearer|basic|token|digest)\s+\S/i.exec(value)?.[1];
}

/** Waits for a positive signal from the page's traffic: a request the page made (from the `from`th on) that passes `test`. */
export async function requestMatching<T>(requests: { method: string; params: unknown }[], method: string, test: (params: T) => boolean, from = 0, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = requests.slice(from).find((request) => request.method === method && test(request.params as T));
    if (found) return found.params as T;
    if (Date.now() > deadline) throw new Error(`no ${method} request matched within ${timeoutMs} ms; requests: ${JSON.stringify(requests.map((request) => request.method))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

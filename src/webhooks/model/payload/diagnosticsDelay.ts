/** The delay before payload diagnostics run after an edit, when the setting holds something unusable. */
export const defaultDiagnosticsDelayMs = 250;

/**
 * `rlStudio.payload.diagnosticsDelayMs` held to 50..5000 ms whatever a settings file says: no
 * delay at all would analyse on every keystroke, and a huge one would leave diagnostics stale.
 */
export function clampDiagnosticsDelay(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(value, 50), 5000) : defaultDiagnosticsDelayMs;
}

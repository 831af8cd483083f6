/**
 * The text of anything thrown: an Error's message, a string as it is, anything else as String()
 * gives it. For logs and for the words of failures that are not the platform's (a bug, a file that
 * could not be read); a platform call's failure is put into words by describeFailure. Pure: no
 * VS Code, no undici, so every layer (webviews included) can use it.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return String(error);
  } catch {
    // An object whose toString throws, or one without a prototype.
    return Object.prototype.toString.call(error);
  }
}

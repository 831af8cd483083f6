import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { survivingPiece } from './support/keys';
import { observed, testApiKey } from './support/harness';

/**
 * A root hook: it runs once every test of the run has finished, and searches every log entry and
 * every error the client tests gathered for the API key, in any field: not the whole key only, but
 * any 8 characters of it in a row, as a message cut at a length limit would leave them.
 */
after('no 8 characters of the API key appear in a log entry or an error of the whole run', () => {
  for (const entry of observed.logEntries) {
    const piece = survivingPiece(JSON.stringify(entry), testApiKey);
    assert.equal(piece, undefined, `"${piece}" of the key in log entry ${JSON.stringify(entry)}`);
  }
  for (const error of observed.errors) {
    const text = [inspect(error, { depth: 6 }), String((error as Error).message), JSON.stringify((error as { details?: unknown }).details ?? null)].join('\n');
    const piece = survivingPiece(text, testApiKey);
    assert.equal(piece, undefined, `"${piece}" of the key in error ${String(error)}`);
  }
});

import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { observed, testApiKey } from './support/harness';

/**
 * A root hook: it runs once every test of the run has finished, and searches every log entry and
 * every error the client tests gathered for the API key, in any field.
 */
after('the API key appears in no log entry and no error of the whole run', () => {
  for (const entry of observed.logEntries) {
    assert.ok(!JSON.stringify(entry).includes(testApiKey), `key in log entry ${JSON.stringify(entry)}`);
  }
  for (const error of observed.errors) {
    const text = [inspect(error, { depth: 6 }), String((error as Error).message), JSON.stringify((error as { details?: unknown }).details ?? null)].join('\n');
    assert.ok(!text.includes(testApiKey), `key in error ${String(error)}`);
  }
});

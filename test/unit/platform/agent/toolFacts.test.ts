import assert from 'node:assert/strict';
import { ToolFacts } from '../../../../src/platform/agent/toolFacts';

describe('tool facts', () => {
  it("keeps each tool's latest facts apart, and an answer without facts clears the previous ones", () => {
    const facts = new ToolFacts();
    facts.record('rlstudio_list_jobs', [{ id: 'a' }]);
    facts.record('rlstudio_list_models', [{ id: 'm' }]);
    facts.record('rlstudio_list_jobs', [{ id: 'b' }]);
    assert.deepEqual(facts.latest('rlstudio_list_jobs'), [{ id: 'b' }]);
    assert.deepEqual(facts.latest('rlstudio_list_models'), [{ id: 'm' }]);
    facts.record('rlstudio_list_models', undefined);
    assert.equal(facts.latest('rlstudio_list_models'), undefined);
  });

  it('forgets a tool before its next call, so what is read afterwards is that call’s', () => {
    const facts = new ToolFacts();
    facts.record('rlstudio_list_jobs', [{ id: 'old' }]);
    facts.forget('rlstudio_list_jobs');
    assert.equal(facts.latest('rlstudio_list_jobs'), undefined);
  });
});

import assert from 'node:assert/strict';
import type { EvalModelRef, LeaderboardRow } from '../../../src/evals/model/evalModel';
import { scoreChartCsv, scoreChartData } from '../../../src/evals/page/scoreChartData';

const checkpoint = (step: number, metrics: Record<string, number> = {}): EvalModelRef => ({
  id: `wandb-artifact:///team/run:step${step}`,
  label: `step ${step}`,
  kind: 'checkpoint',
  api: 'training',
  step,
  metrics,
});
const row = (model: EvalModelRef, mean: number, half = 0.05, scored = 20): LeaderboardRow => ({ model: model.id, label: model.label, mean, low: mean - half, high: mean + half, scored, failed: 0 });

describe('the score chart data and its CSV', () => {
  const late = checkpoint(200, { reward: 1.5, loss: 0.2 });
  const early = checkpoint(100, { reward: 0.75 });
  const unscored = checkpoint(300, { reward: 2 });
  const base: EvalModelRef = { id: 'Qwen/Qwen3-8B', label: 'base', kind: 'base', api: 'inference' };
  const catalogue: EvalModelRef = { id: '=HYPERLINK("x"),evil', label: 'odd', kind: 'catalogue', api: 'inference' };
  const models = [late, early, unscored, base, catalogue];
  const rows = [row(late, 0.625, 0.125), row(early, 0.5, 0.25), row(unscored, 0.9, 0.05, 0), row(base, 0.25, 0.0625), row(catalogue, 0.75)];

  it('charts the scored checkpoints by step with their metric, and the models to beat', () => {
    const data = scoreChartData(rows, models, 'reward');
    assert.deepEqual(
      data.checkpoints.map((point) => [point.step, point.row.mean, point.metric]),
      [
        [100, 0.5, 0.75],
        [200, 0.625, 1.5],
      ],
      'ascending by step; a checkpoint with nothing scored is left out',
    );
    assert.equal(data.base?.model, base);
    assert.deepEqual(
      data.catalogue.map((each) => each.model),
      [catalogue],
    );
    assert.equal(data.metric, 'reward');
    const lossOnly = scoreChartData(rows, models, 'loss');
    assert.ok(Number.isNaN(lossOnly.checkpoints[0]!.metric), 'a checkpoint without the metric has none');
    assert.equal(scoreChartData(rows, models, 'entropy').metric, undefined, 'a metric no checkpoint records is not charted');
    const other: EvalModelRef = { ...checkpoint(100), id: 'wandb-artifact:///team/other:step100' };
    assert.deepEqual(
      scoreChartData([...rows, row(other, 0.4)], [late, early, other], undefined).checkpoints.map((point) => point.model.id),
      [early.id, other.id, late.id],
      'checkpoints of two training models at one step both stay',
    );
  });

  it('writes a row per checkpoint (step, model, mean, interval, metric), then the base at step 0 and the catalogue models, names made safe', () => {
    const csv = scoreChartCsv(scoreChartData(rows, models, 'reward'));
    assert.equal(
      csv,
      [
        'step,model,kind,mean,ci95_low,ci95_high,reward',
        '100,wandb-artifact:///team/run:step100,checkpoint,0.5,0.25,0.75,0.75',
        '200,wandb-artifact:///team/run:step200,checkpoint,0.625,0.5,0.75,1.5',
        '0,Qwen/Qwen3-8B,base,0.25,0.1875,0.3125,',
        `,"'=HYPERLINK(""x""),evil",catalogue,0.75,0.7,0.8,`,
        '',
      ].join('\n'),
    );
  });

  it('leaves out the metric column when no metric is charted, and keeps an empty value where a checkpoint lacks it', () => {
    const none = scoreChartCsv(scoreChartData(rows, [early], undefined));
    assert.deepEqual(none.trim().split('\n'), ['step,model,kind,mean,ci95_low,ci95_high', '100,wandb-artifact:///team/run:step100,checkpoint,0.5,0.25,0.75']);
    const loss = scoreChartCsv(scoreChartData(rows, [early, late], 'loss'))
      .trim()
      .split('\n');
    assert.equal(loss[0], 'step,model,kind,mean,ci95_low,ci95_high,loss');
    assert.equal(loss[1], '100,wandb-artifact:///team/run:step100,checkpoint,0.5,0.25,0.75,');
    assert.equal(loss[2], '200,wandb-artifact:///team/run:step200,checkpoint,0.625,0.5,0.75,0.2');
  });
});

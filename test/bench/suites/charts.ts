/**
 * Drawing a chart of 16 series × 10,000 steps with smoothing, as the job details and model pages
 * do: the time to compute a frame (the geometry of every line, downsampled to about two points a
 * pixel, and the SVG path texts) on a zoom and on a new point, at p95, against the same frames
 * drawn from every point with no downsampling (the smoothing and the path of all 160,000 points).
 * Both run as the extension ships them, bundled. What the browser then spends laying the paths out
 * is not counted on either side; it grows with the points drawn, which only favours the
 * downsampled side further.
 */
import type * as ChartGeometry from '../../../src/platform/charts/chartGeometry';
import type * as Smoothing from '../../../src/platform/charts/smoothing';
import type { BenchFigure, BenchSuite } from '../report';
import { loadAsShipped } from '../shippedModules';
import { percentile } from '../stats';

const seriesCount = 16;
const steps = 10_000;
const frames = 60;
const box = { width: 480, height: 160, margin: { top: 10, right: 14, bottom: 24, left: 56 } };

type Shipped = typeof ChartGeometry & typeof Smoothing;

function pathOf(points: ArrayLike<number>): string {
  let path = '';
  for (let at = 0; at < points.length; at += 2) path += `${at === 0 ? 'M' : 'L'}${points[at]!.toFixed(1)},${points[at + 1]!.toFixed(1)}`;
  return path;
}

function noisyRun(seed: number, length: number): { xs: number[]; ys: number[] } {
  const xs: number[] = [];
  const ys: number[] = [];
  let state = seed;
  for (let step = 1; step <= length; step++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    xs.push(step);
    ys.push(Math.log(step + 1) / 10 + (state / 2147483648 - 0.5) * 0.3);
  }
  return { xs, ys };
}

export const suite: BenchSuite = {
  name: 'Charts: 16 series of 10,000 steps',
  async run(): Promise<BenchFigure[]> {
    const shipped = await loadAsShipped<Shipped>({ 'src/platform/charts/chartGeometry.ts': ['chartGeometry', 'SmoothingCache'], 'src/platform/charts/smoothing.ts': ['exponentialMovingAverage'] });
    const runs = Array.from({ length: seriesCount }, (_, index) => noisyRun(index + 1, steps));
    const cache = new shipped.SmoothingCache();
    const lines = runs.map((run, index) => ({ key: `metric-${index}`, xs: run.xs, ys: run.ys }));

    // Ours: the geometry of every line, then its paths.
    const ourFrame = (xRange?: [number, number]) => {
      const geometry = shipped.chartGeometry(lines, { smoothing: 0.8, logScale: false, ...(xRange ? { xRange } : {}) }, box, cache);
      let characters = 0;
      for (const line of geometry.lines) characters += pathOf(line.raw).length + pathOf(line.smoothed ?? []).length;
      return characters;
    };
    // The peer: every point scaled and drawn, smoothed again each frame.
    const everyPointFrame = (xRange?: [number, number]) => {
      let characters = 0;
      for (const line of lines) {
        const [from, to] = xRange ?? [line.xs[0]!, line.xs[line.xs.length - 1]!];
        const smoothed = shipped.exponentialMovingAverage(line.ys, 0.8);
        const raw: number[] = [];
        const smooth: number[] = [];
        let min = Infinity;
        let max = -Infinity;
        for (let index = 0; index < line.xs.length; index++) {
          if (line.xs[index]! < from || line.xs[index]! > to) continue;
          min = Math.min(min, line.ys[index]!);
          max = Math.max(max, line.ys[index]!);
        }
        const scaleX = (box.width - 70) / (to - from || 1);
        const scaleY = (box.height - 34) / (max - min || 1);
        for (let index = 0; index < line.xs.length; index++) {
          const x = line.xs[index]!;
          if (x < from || x > to) continue;
          raw.push(56 + (x - from) * scaleX, 10 + (max - line.ys[index]!) * scaleY);
          smooth.push(56 + (x - from) * scaleX, 10 + (max - smoothed[index]!) * scaleY);
        }
        characters += pathOf(raw).length + pathOf(smooth).length;
      }
      return characters;
    };

    const timeFrames = (frame: (xRange?: [number, number]) => number, kind: 'zoom' | 'append'): number[] => {
      const times: number[] = [];
      for (let index = 0; index < frames; index++) {
        if (kind === 'append') {
          // A new point on every series, as a live job sends one.
          for (const run of runs) {
            run.xs.push(run.xs[run.xs.length - 1]! + 1);
            run.ys.push(run.ys[run.ys.length - 1]!);
          }
        }
        const zoom: [number, number] | undefined = kind === 'zoom' ? [1 + index * 50, steps - index * 50] : undefined;
        const started = performance.now();
        frame(zoom);
        times.push(performance.now() - started);
      }
      return times;
    };
    // Warm both up, then alternate.
    timeFrames(ourFrame, 'zoom');
    timeFrames(everyPointFrame, 'zoom');
    const oursZoom = timeFrames(ourFrame, 'zoom');
    const peerZoom = timeFrames(everyPointFrame, 'zoom');
    const oursAppend = timeFrames(ourFrame, 'append');
    const peerAppend = timeFrames(everyPointFrame, 'append');
    const note = `${seriesCount} series × ${steps.toLocaleString('en-US')} steps, smoothing 0.8, a ${box.width}-pixel chart; p95 of ${frames} frames; layout in the browser not counted`;
    return [
      {
        name: 'Chart frame on a zoom (p95)',
        value: percentile(oursZoom, 0.95),
        unit: 'ms',
        peer: { name: 'every point drawn, no downsampling', value: percentile(peerZoom, 0.95) },
        better: 'lower',
        goal: { kind: 'absolute', atMost: 16 },
        note,
      },
      {
        name: 'Chart frame on a new point (p95)',
        value: percentile(oursAppend, 0.95),
        unit: 'ms',
        peer: { name: 'every point drawn, no downsampling', value: percentile(peerAppend, 0.95) },
        better: 'lower',
        goal: { kind: 'absolute', atMost: 16 },
        note: `${note}; only the new point of each series is smoothed`,
      },
    ];
  },
};

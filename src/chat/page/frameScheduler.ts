/** Something that redraws itself from its latest state when its frame comes. */
export interface Redrawable {
  renderFrame(): void;
}

/** A frame may use this much of the main thread before the next ones are spaced out. */
const frameBudgetMs = 10;

/**
 * Batches redraws to one per animation frame: streamed text arriving many times per frame is drawn
 * once, and only the views that changed are drawn. When a frame costs more than the budget (a very
 * large open block), the next one waits about twice that long, so input and scrolling always get
 * most of the main thread. Each frame is recorded as a `rl-chat:frame` performance measure.
 */
export class FrameScheduler {
  private readonly dirty = new Set<Redrawable>();
  private scheduled = false;
  private notBefore = 0;
  private measured = 0;

  constructor(
    private readonly requestFrame: (callback: () => void) => void = (callback) => requestAnimationFrame(() => callback()),
    private readonly now: () => number = () => performance.now(),
  ) {}

  schedule(view: Redrawable): void {
    this.dirty.add(view);
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.notBefore - this.now();
    if (wait > 0) setTimeout(() => this.requestFrame(() => this.run()), wait);
    else this.requestFrame(() => this.run());
  }

  /** Draws a view now (Stop, a final answer) and drops it from the pending frame. */
  flush(view: Redrawable): void {
    this.dirty.delete(view);
    view.renderFrame();
  }

  cancel(view: Redrawable): void {
    this.dirty.delete(view);
  }

  private run(): void {
    this.scheduled = false;
    const views = [...this.dirty];
    this.dirty.clear();
    if (views.length === 0) return;
    const started = this.now();
    for (const view of views) view.renderFrame();
    const cost = this.now() - started;
    this.notBefore = cost > frameBudgetMs ? this.now() + cost * 2 : 0;
    try {
      // Bounded: a panel left open for days must not grow the timeline without end.
      if (++this.measured % 20_000 === 0) performance.clearMeasures('rl-chat:frame');
      performance.measure('rl-chat:frame', { start: started, duration: cost });
    } catch {
      // Older engines without measure options: the figure is only for diagnostics.
    }
  }
}

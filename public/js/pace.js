/**
 * The screen's pace: what painting costs it, and the frame rate it keeps up with.
 *
 * The page tells it of every frame it handles (`frameHandled(ms)`: parsing and patching) and every animation frame
 * it paints (`painted(ms)`: the DOM writes and the style and layout they cause). Once a second it looks at the last
 * second: the screen cannot keep up when it painted fewer than three quarters of the frames it was sent, or when
 * handling and painting took more than 60 % of the second. After OVERLOADED_SECONDS such seconds in a row it asks the
 * server for the next lower rate on the ladder at or below what it painted (the `fps` client message); frames carry
 * positions, so the motion stays right at any rate. After enough calm seconds (the work at the next rate up would
 * stay under 40 % of a second, and every frame was painted) it asks for one step more, never above the rate it
 * wanted; a step up that has to be taken back doubles the calm wait (up to CALM_SECONDS_MAX).
 *
 * Every REPORT_SECONDS it reports frames painted per second and milliseconds per painted frame (the `report` client
 * message); the server lists them with the screen (`GET /api/v1/screens`). Test hooks on <body>: `data-fps` (the
 * rate asked for), `data-painted-fps`, `data-paint-ms`.
 */

/** The rates the page steps through, frames per second: those of them in the server's range (`hello.fpsRange`). */
const LADDER = [60, 30, 20, 15, 10, 6, 4, 2, 1];
const OVERLOADED_SECONDS = 3;
const CALM_SECONDS = 10;
const CALM_SECONDS_MAX = 160;
/** A step up that is overloaded again within this many seconds was too early. */
const PROBATION_SECONDS = 15;
const REPORT_SECONDS = 5;
const BUSY_OVERLOADED = 0.6;
const BUSY_ROOM = 0.4;
const PAINTED_SHARE_OVERLOADED = 0.75;

export class Pace {
  /**
   * @param {object} options
   * @param {(fps: number) => void} options.setFps  asks the server for another frame rate
   * @param {(report: object) => boolean} options.report  sends a `report` message; false when not connected
   * @param {() => number} [options.now]  milliseconds, monotonic
   */
  constructor({ setFps, report, now }) {
    this.setFps = setFps;
    this.report = report;
    this.now = now || (() => performance.now());
    this.wanted = null;
    this.current = null;
    /** The frame rates the server gives, `[lowest, highest]` (the last hello's), and the ladder's rates within them. */
    this.range = null;
    this.ladder = LADDER;
    this.second = { frames: 0, paints: 0, busy: 0 };
    this.recent = [];
    this.overloadedSeconds = 0;
    this.calmSeconds = 0;
    this.calmNeeded = CALM_SECONDS;
    this.steppedUpAt = null;
    this.secondsRun = 0;
    this.timer = null;
  }

  /**
   * A `hello`: the session runs at `serverFps`, and the server gives rates in `range` (`[lowest, highest]`, see
   * connection.js); `wanted` is the rate this screen would like (null: the server's), which the connection asks for
   * right after the first hello.
   */
  hello(serverFps, wanted, range) {
    if (typeof serverFps !== "number") return;
    this.range = range || [1, serverFps];
    this.ladder = LADDER.filter((rate) => rate >= this.range[0] && rate <= this.range[1]);
    const inRange = (rate) => Math.min(this.range[1], Math.max(this.range[0], rate));
    if (this.wanted === null) this.wanted = inRange(wanted || serverFps);
    if (this.current === null) this.current = wanted ? this.wanted : serverFps;
    this.overloadedSeconds = 0;
    this.calmSeconds = 0;
    this.second = { frames: 0, paints: 0, busy: 0 };
    document.body.dataset.fps = String(this.current);
    if (this.timer === null) this.timer = setInterval(() => this.tick(), 1000);
  }

  frameHandled(milliseconds) {
    this.second.frames += 1;
    this.second.busy += milliseconds;
  }

  painted(milliseconds) {
    this.second.paints += 1;
    this.second.busy += milliseconds;
  }

  /** Once a second: judges the second that passed, steps the rate, and reports now and then. */
  tick() {
    const second = this.second;
    this.second = { frames: 0, paints: 0, busy: 0 };
    if (document.hidden || this.current === null) return;
    this.secondsRun += 1;
    this.recent.push(second);
    if (this.recent.length > REPORT_SECONDS) this.recent.shift();
    const overloaded = (second.frames >= 4 && second.paints < PAINTED_SHARE_OVERLOADED * second.frames)
      || second.busy > BUSY_OVERLOADED * 1000;
    const next = this.ladder.slice().reverse().find((rate) => rate > this.current);
    const room = !overloaded && second.paints >= second.frames
      && (next === undefined || second.busy * (next / this.current) < BUSY_ROOM * 1000);
    this.overloadedSeconds = overloaded ? this.overloadedSeconds + 1 : 0;
    this.calmSeconds = room ? this.calmSeconds + 1 : 0;

    if (this.overloadedSeconds >= OVERLOADED_SECONDS) {
      const paintedRate = second.paints * (second.frames > 0 ? this.current / second.frames : 1);
      const lower = this.ladder.find((rate) => rate < this.current && rate <= Math.max(1, paintedRate)) ||
        this.ladder.find((rate) => rate < this.current);
      if (lower !== undefined) {
        if (this.steppedUpAt !== null && this.secondsRun - this.steppedUpAt <= PROBATION_SECONDS) {
          this.calmNeeded = Math.min(CALM_SECONDS_MAX, this.calmNeeded * 2);
        }
        this.steppedUpAt = null;
        this.change(lower);
      }
    } else if (this.calmSeconds >= this.calmNeeded && next !== undefined && this.wanted !== null && next <= this.wanted) {
      this.steppedUpAt = this.secondsRun;
      this.change(next);
    }
    if (this.secondsRun % REPORT_SECONDS === 0) this.sendReport();
  }

  change(rate) {
    this.current = rate;
    this.overloadedSeconds = 0;
    this.calmSeconds = 0;
    this.recent = [];
    this.setFps(rate);
    document.body.dataset.fps = String(rate);
  }

  /** Frames painted per second and milliseconds per painted frame over the last few seconds. */
  figures() {
    const seconds = this.recent.length;
    if (seconds === 0) return null;
    const paints = this.recent.reduce((sum, second) => sum + second.paints, 0);
    const busy = this.recent.reduce((sum, second) => sum + second.busy, 0);
    return {
      fps: Math.min(this.range[1], Math.round((paints / seconds) * 10) / 10),
      paintMs: Math.min(10000, Math.round((paints > 0 ? busy / paints : 0) * 10) / 10),
    };
  }

  sendReport() {
    const figures = this.figures();
    if (!figures) return;
    document.body.dataset.paintedFps = String(figures.fps);
    document.body.dataset.paintMs = String(figures.paintMs);
    this.report({ type: "report", fps: figures.fps, paintMs: figures.paintMs });
  }
}

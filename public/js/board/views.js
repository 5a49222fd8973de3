/** Which view paints which tile type: one of the tile views (tiles/*.js), or a tile that says its type is unsupported. */
import { el } from "../page.js";
import { CarouselView } from "../tiles/carousel.js";
import { ChartView } from "../tiles/chart.js";
import { ClockView } from "../tiles/clock.js";
import { CounterView } from "../tiles/counter.js";
import { GaugeView } from "../tiles/gauge.js";
import { LeaderboardView } from "../tiles/leaderboard.js";
import { OdometerView } from "../tiles/odometer.js";
import { TextView } from "../tiles/text.js";
import { TileView } from "../tiles/tile.js";
import { WheelView } from "../tiles/wheel.js";

/**
 * The view for `tile` of `dashboard` (a tile of the `hello`'s `dashboard.tiles`); `send` sends a client message
 * (a carousel's commands).
 */
export function viewFor(tile, dashboard, send) {
  switch (tile.type) {
    case "odometer": return new OdometerView(tile);
    case "counter": return new CounterView(tile);
    case "wheel": return new WheelView(tile);
    case "carousel": return new CarouselView(tile, send);
    case "text": return new TextView(tile);
    case "gauge": return new GaugeView(tile);
    case "chart": return new ChartView(tile, dashboard);
    case "clock": return new ClockView(tile);
    case "leaderboard": return new LeaderboardView(tile);
    default: {
      const view = new TileView(tile, "unsupported");
      view.body.append(el("p", { className: "board__message", text: `Unsupported tile type “${tile.type}”` }));
      return view;
    }
  }
}

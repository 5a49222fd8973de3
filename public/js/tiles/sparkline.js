/**
 * The sparkline under an odometer's or counter's number (`trend: 24h`): STATE `"spark":[H,…]`,
 * oldest first, each point's height in hundredths from the line's lowest value (0) to its highest
 * (100), null a gap. The server places every point; the page draws a polyline per run of points
 * (viewBox 0 0 100 20, point i of n at x = (i + ½) / n × 100, y = 19 − H / 100 × 18), the newest known point marked
 * with a dot. It spans the tile's width under the number and takes about a third of its height (rollboard.css).
 * Test hook on the tile: `data-spark`, the heights joined by "," (gaps empty); absent without one.
 */
const SVG = "http://www.w3.org/2000/svg";

/** Paints `spark` (an array, or anything else to take the sparkline down) under `view`'s number. */
export function paintSparkline(view, spark) {
  if (!Array.isArray(spark)) {
    if (view.sparkline) view.sparkline.style.display = "none";
    delete view.element.dataset.spark;
    return;
  }
  const key = spark.join(",");
  if (view.sparkline && view.element.dataset.spark === key) return;
  if (!view.sparkline) {
    view.sparkline = document.createElementNS(SVG, "svg");
    view.sparkline.setAttribute("viewBox", "0 0 100 20");
    view.sparkline.setAttribute("preserveAspectRatio", "none");
    view.sparkline.setAttribute("class", "tile__spark");
    view.sparkline.setAttribute("aria-hidden", "true");
    view.sparkPath = document.createElementNS(SVG, "path");
    // The newest point, marked with a dot (a zero-length segment with a round cap, in screen pixels).
    view.sparkNewest = document.createElementNS(SVG, "path");
    view.sparkNewest.setAttribute("class", "tile__spark-newest");
    view.sparkline.append(view.sparkPath, view.sparkNewest);
    view.element.append(view.sparkline);
  }
  const count = Math.max(spark.length, 1);
  let path = "";
  let open = false;
  spark.forEach((height, index) => {
    if (typeof height !== "number" || !isFinite(height)) {
      open = false;
      return;
    }
    const x = ((index + 0.5) / count) * 100;
    const y = 19 - (Math.min(Math.max(height, 0), 100) / 100) * 18;
    path += `${open ? "L" : "M"}${x.toFixed(2)} ${y.toFixed(2)}`;
    if (!open && (index + 1 >= spark.length || typeof spark[index + 1] !== "number")) path += "h0.01";
    open = true;
  });
  view.sparkPath.setAttribute("d", path);
  let newest = "";
  for (let index = spark.length - 1; index >= 0 && !newest; index -= 1) {
    const height = spark[index];
    if (typeof height !== "number" || !isFinite(height)) continue;
    const x = ((index + 0.5) / count) * 100;
    newest = `M${x.toFixed(2)} ${(19 - (Math.min(Math.max(height, 0), 100) / 100) * 18).toFixed(2)}h0.01`;
  }
  view.sparkNewest.setAttribute("d", newest);
  view.sparkline.style.display = "";
  view.element.dataset.spark = spark.map((height) => (typeof height === "number" ? String(height) : "")).join(",");
}

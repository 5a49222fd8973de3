/** The document's language while a dashboard is shown (hyphenation, screen readers). */
import { tileOptions } from "../tiles/tile.js";

/** The language of the page's own words (dashboard.html's `lang`), for dashboards that name no locale. */
const PAGE_LANGUAGE = document.documentElement.lang || "en";

/**
 * Sets `lang` on <html> to the dashboard's `locale`, else to the locale most of its tiles name (odometers and
 * counters carry one); without any, the page's own.
 */
export function setLanguage(dashboard) {
  document.documentElement.lang = languageTag(dashboard.locale) || commonLocale(dashboard.tiles) || PAGE_LANGUAGE;
}

/** A BCP 47 language tag from a locale option ("de-DE"; "de_DE" is read too), or null. */
function languageTag(value) {
  if (typeof value !== "string") return null;
  const tag = value.trim().replace(/_/g, "-");
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : null;
}

/** The locale named by most of `tiles` (the first of equals), or null when none names one. */
function commonLocale(tiles) {
  const counts = new Map();
  for (const tile of tiles) {
    const tag = tile && languageTag(tileOptions(tile).locale);
    if (tag) counts.set(tag, (counts.get(tag) || 0) + 1);
  }
  let best = null;
  for (const [tag, count] of counts) {
    if (best === null || count > counts.get(best)) best = tag;
  }
  return best;
}

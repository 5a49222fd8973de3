/**
 * Carousel tile (CustomBanner): a track of slides moved by the server's continuous position,
 * with page dots.
 *
 * The track holds the slides followed by a copy of the first, so a position between the last
 * slide and the wrap (3.5 of 4 slides) shows half of the last slide and half of the first.
 *
 * STATE (painting form; the wire's `p` is X in thousandths): `{"position":X,"page":K}`, X in [0, slides)
 * and K the page the dots show; `slides` (an array as the option below) while a producer's slides
 * replace the configured ones: the track and dots are built again when it changes.
 *
 * Options:
 *   `slides`: array; a string is an image when it looks like an image URL (…png/jpg/jpeg/gif/webp/
 *             svg/avif, or a data:image URL), else text; an object may give `image` (or `src`),
 *             `text` (or `caption`/`title`), `alt`, `color` (a text slide's text, an image's background).
 *   `dotColor` / `activeDotColor` (also read as `currentDotColor`) (the article's `indicatorColor` / `currentIndicatorColor` are
 *             read too), `showDots` (default true; hidden anyway for a single slide).
 *
 * Viewer input goes to the server and acts on this client only: pressing or dragging a slide
 * sends `hold`, letting go sends `release` (after `next`/`prev` when the drag went further than
 * a sixth of the width); a dot sends `goto` with its page; arrow keys send `prev`/`next`.
 *
 * Calm mode (reduced motion): the carousel starts stopped (`hold`) and shows a pause/play button
 * (WCAG 2.2.2); play sends `release`, pause `hold` again. Slides then change as jumps: a calm
 * screen's server sends only pages.
 *
 * Test hooks: `data-page`, `data-position`, `data-held`, `data-playing` (calm mode), `data-slides`
 * (the number of slides shown).
 */
import { el, finiteNumber, orDefault, replaceChildren, setData, setStyle, snapToDevicePixels } from "../page.js";
import { TileView, shownLength } from "./tile.js";

const IMAGE_URL = /^data:image\/|\.(png|jpe?g|gif|webp|svg|avif)([?#].*)?$/i;
const SWIPE_FRACTION = 1 / 6;

export class CarouselView extends TileView {
  /** @param {(message: object) => void} send sends one client message to the server */
  constructor(tile, send) {
    super(tile, "carousel");
    this.send = send;
    this.track = el("div", { className: "carousel__track" });
    this.viewport = el("div", { className: "carousel__viewport" }, this.track);

    const dotColor = colourOption(orDefault(this.options.dotColor, this.options.indicatorColor));
    const currentDotColor = colourOption(orDefault(this.options.activeDotColor,
      orDefault(this.options.currentDotColor, this.options.currentIndicatorColor)));
    this.dotBar = el("div", { className: "carousel__dots" });
    this.playButton = el("button", { className: "carousel__play", type: "button", hidden: true });
    this.playButton.addEventListener("click", () => this.setPlaying(!this.playing));
    this.calm = false;
    this.playing = true;
    this.slidesKey = null;
    this.stateSlides = null;
    this.setSlides(this.options.slides);
    this.root = el("div", { className: "carousel", tabindex: "0", "aria-roledescription": "carousel" }, this.viewport, this.dotBar,
      this.playButton);
    // Without configured colours the dots follow the theme's --dot and --dot-current.
    if (dotColor) this.root.style.setProperty("--dot", dotColor);
    if (currentDotColor) this.root.style.setProperty("--dot-current", currentDotColor);
    this.body.append(this.root);

    this.width = 0;
    this.lastState = null;
    this.pointer = null;
    this.listen();
  }

  /** Builds the track (the slides, then the first again) and one dot per slide from a `slides` array. */
  setSlides(entries) {
    this.slides = (Array.isArray(entries) ? entries : []).map(slideFrom).filter(Boolean);
    const longestText = this.slides.reduce((length, slide) => Math.max(length, slide.text ? shownLength(slide.text) : 0), 4);
    this.track.style.setProperty("--chars", String(Math.min(longestText + 1, 24)));
    this.track.style.setProperty("--root", Math.sqrt(longestText + 1).toFixed(2));
    replaceChildren(this.track, ...[...this.slides, this.slides[0]].filter(Boolean).map(renderSlide));
    this.dots = this.slides.map((_, page) => {
      const dot = el("button", { className: "carousel__dot", type: "button", "aria-label": `Slide ${page + 1}` });
      dot.addEventListener("click", () => this.send({ type: "carousel", id: this.id, action: "goto", page }));
      return dot;
    });
    replaceChildren(this.dotBar, ...this.dots);
    this.dotBar.hidden = this.options.showDots === false || this.slides.length < 2;
    this.playButton.hidden = !this.calm || this.slides.length < 2;
    this.element.dataset.slides = String(this.slides.length);
  }

  paint(state) {
    this.lastState = state;
    if (Array.isArray(state.slides) && state.slides !== this.stateSlides) {
      this.stateSlides = state.slides;
      const key = JSON.stringify(state.slides);
      if (key !== this.slidesKey) {
        this.slidesKey = key;
        this.setSlides(state.slides);
      }
    }
    const count = this.slides.length;
    if (count === 0) return;
    const position = ((finiteNumber(state.position, 0) % count) + count) % count;
    if (!this.width) this.width = this.viewport.getBoundingClientRect().width;
    const offset = this.width ? `${-snapToDevicePixels(position * this.width)}px` : `${-position * 100}%`;
    // Only what changed is written: an attribute set again to its value still costs the dots a style recalculation.
    setStyle(this.track, "transform", `translateX(${offset})`);
    const page = Math.min(Math.max(Math.trunc(finiteNumber(state.page, Math.round(position) % count)), 0), count - 1);
    this.dots.forEach((dot, index) => {
      const current = index === page ? "true" : "false";
      if (dot.getAttribute("aria-current") !== current) dot.setAttribute("aria-current", current);
    });
    setData(this.element, "page", String(page));
    setData(this.element, "position", String(position));
  }

  /**
   * Calm mode on a new session: the carousel stops (its screen's own `hold`) and shows the play
   * button; a carousel the viewer set playing keeps playing. Off: the button goes, slides advance.
   */
  setCalm(calm) {
    const wasCalm = this.calm;
    this.calm = calm;
    this.playButton.hidden = !calm || this.slides.length < 2;
    if (!calm) {
      delete this.element.dataset.playing;
      return;
    }
    this.setPlaying(wasCalm ? this.playing : false);
  }

  /** Plays (`release`) or stops (`hold`) this screen's carousel; calm mode only. */
  setPlaying(playing) {
    this.playing = playing;
    this.send({ type: "carousel", id: this.id, action: playing ? "release" : "hold" });
    this.element.dataset.playing = playing ? "true" : "false";
    this.playButton.textContent = playing ? "Pause" : "Play";
    this.playButton.setAttribute("aria-label", playing ? "Pause the slides" : "Play the slides");
  }

  resized() {
    this.width = 0;
    if (this.lastState) this.paint(this.lastState);
  }

  listen() {
    const command = (action) => this.send({ type: "carousel", id: this.id, action });
    const press = (id, clientX) => {
      if (this.pointer) return false;
      this.pointer = { id, startX: clientX };
      this.element.dataset.held = "true";
      this.root.dataset.held = "true";
      command("hold");
      return true;
    };
    const letGo = (id, clientX, cancelled) => {
      if (!this.pointer || id !== this.pointer.id) return;
      const travel = clientX - this.pointer.startX;
      this.pointer = null;
      this.element.dataset.held = "false";
      this.root.dataset.held = "false";
      if (!cancelled && Math.abs(travel) > this.viewport.clientWidth * SWIPE_FRACTION) {
        command(travel < 0 ? "next" : "prev");
      }
      if (!this.calm || this.playing) command("release");  // a stopped calm carousel stays stopped
    };
    if ("PointerEvent" in window) {
      this.viewport.addEventListener("pointerdown", (event) => {
        if (event.button > 0) return;
        if (press(event.pointerId, event.clientX)) this.viewport.setPointerCapture(event.pointerId);
      });
      this.viewport.addEventListener("pointerup", (event) => letGo(event.pointerId, event.clientX, false));
      this.viewport.addEventListener("pointercancel", (event) => letGo(event.pointerId, event.clientX, true));
      this.viewport.addEventListener("lostpointercapture", (event) => letGo(event.pointerId, event.clientX, true));
    } else {
      // Pointer Events came in Safari 13; an iPad on Safari 12 has touch events, which go to the touched element anyway.
      const eachTouch = (event, action) => Array.from(event.changedTouches, (touch) => action(touch.identifier, touch.clientX));
      this.viewport.addEventListener("touchstart", (event) => eachTouch(event, press));
      this.viewport.addEventListener("touchend", (event) => eachTouch(event, (id, x) => letGo(id, x, false)));
      this.viewport.addEventListener("touchcancel", (event) => eachTouch(event, (id, x) => letGo(id, x, true)));
    }
    this.root.addEventListener("keydown", (event) => {
      if (event.key === "ArrowLeft") command("prev");
      else if (event.key === "ArrowRight") command("next");
      else return;
      event.preventDefault();
    });
  }
}

/** Normalises one entry of `slides` to `{image, text, alt}` (null when unusable). */
function slideFrom(entry) {
  if (typeof entry === "string") {
    return IMAGE_URL.test(entry.trim()) ? { image: entry.trim(), text: null, alt: "" } : { image: null, text: entry, alt: "" };
  }
  if (!entry || typeof entry !== "object") return null;
  const image = typeof entry.image === "string" ? entry.image : typeof entry.src === "string" ? entry.src : null;
  const textValue = orDefault(entry.text, orDefault(entry.caption, entry.title));
  const text = typeof textValue === "string" ? textValue : null;
  if (!image && text === null) return null;
  return { image, text, alt: typeof entry.alt === "string" ? entry.alt : orDefault(text, ""), color: colourOption(entry.color) };
}

function renderSlide(slide) {
  const element = slide.image
    ? el("div", { className: "carousel__slide carousel__slide--image", "data-color": slide.color },
      el("img", { src: slide.image, alt: slide.alt, draggable: "false", decoding: "async" }),
      slide.text ? el("div", { className: "carousel__caption", text: slide.text }) : null)
    : el("div", { className: "carousel__slide carousel__slide--text", "data-color": slide.color },
      el("div", { className: "carousel__text", text: slide.text }));
  if (slide.color) element.style.setProperty("--slide-color", slide.color);
  return element;
}

/** A CSS colour from an option, or null; only plain colour syntax is let through. */
function colourOption(value) {
  if (typeof value !== "string") return null;
  const colour = value.trim();
  return /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([\d\s.,%/+-]+\)|[a-z]+)$/i.test(colour) ? colour : null;
}

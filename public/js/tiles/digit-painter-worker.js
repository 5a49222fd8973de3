/*
 * The odometers' digit painter (a classic worker script; see digit-painter.js): it owns the digit canvases the page
 * handed over, keeps each strip's pixels, and carries out the page's commands in order. A canvas it draws into is
 * committed to the screen by the worker itself, without the page's main thread.
 *
 * Commands (one message holds a task's worth, in order):
 *   ["canvas", id, OffscreenCanvas]    adopt a canvas
 *   ["strip", id, ImageData]           keep a strip's pixels
 *   ["drop", [strip ids]]              let strips go
 *   ["size", id, width, height]        size a canvas (clears it)
 *   ["clear", id]                      clear a canvas
 *   ["copy", id, strip, x, y, w, h, sx, sy]  clear a window and copy the strip's (sx, sy) there (sy < 0: clear only)
 *   ["forget", id, [strip ids]]        let a canvas and its strips go
 */
"use strict";

// The page hands canvases over only where this exists; anywhere else, failing here makes it paint them itself.
if (typeof OffscreenCanvas !== "function") throw new Error("this engine has no OffscreenCanvas");

var canvases = new Map();
var strips = new Map();

self.onmessage = function (event) {
  var commands = event.data;
  for (var index = 0; index < commands.length; index += 1) run(commands[index]);
};

function run(command) {
  var kind = command[0];
  if (kind === "canvas") {
    canvases.set(command[1], command[2].getContext("2d"));
  } else if (kind === "strip") {
    var pixels = command[2];
    var strip = new OffscreenCanvas(pixels.width, pixels.height);
    strip.getContext("2d").putImageData(pixels, 0, 0);
    strips.set(command[1], strip);
  } else if (kind === "drop") {
    command[1].forEach(function (id) { strips.delete(id); });
  } else if (kind === "size") {
    var sized = canvases.get(command[1]);
    if (!sized) return;
    if (sized.canvas.width !== command[2]) sized.canvas.width = command[2];
    if (sized.canvas.height !== command[3]) sized.canvas.height = command[3];
  } else if (kind === "clear") {
    var cleared = canvases.get(command[1]);
    if (cleared) cleared.clearRect(0, 0, cleared.canvas.width, cleared.canvas.height);
  } else if (kind === "copy") {
    var context = canvases.get(command[1]);
    if (!context) return;
    var x = command[3], y = command[4], width = command[5], height = command[6];
    context.clearRect(x, y, width, height);
    var source = strips.get(command[2]);
    if (source && command[8] >= 0) context.drawImage(source, command[7], command[8], width, height, x, y, width, height);
  } else if (kind === "forget") {
    canvases.delete(command[1]);
    command[2].forEach(function (id) { strips.delete(id); });
  }
}

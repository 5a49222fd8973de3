/*
 * Loaded as a classic script before the dashboard's modules, so it runs even where they cannot: it is
 * written to ES5 (no let/const, arrows or template strings) on purpose.
 *
 * It records script errors (the first is kept on <html> as `data-script-error`, the count as
 * `data-script-errors`) in `window.rollboardErrors`; dashboard.js reports the first one to the server once.
 * When the page's modules did not start by the `load` event (a module that does not parse in this browser,
 * or no ES modules at all), it says so on the board instead of leaving the screen blank, and tells the server.
 */
(function () {
  "use strict";
  var errors = [];
  var LIMIT = 20;
  window.rollboardErrors = errors;

  function record(message) {
    if (errors.length >= LIMIT) return;
    errors.push(String(message).slice(0, 300));
    var root = document.documentElement;
    root.setAttribute("data-script-errors", String(errors.length));
    if (errors.length === 1) root.setAttribute("data-script-error", errors[0]);
  }

  window.addEventListener("error", function (event) {
    var where = event.filename ? " (" + event.filename.replace(location.origin, "") + ":" + event.lineno + ")" : "";
    record((event.message || "script error") + where);
  });
  window.addEventListener("unhandledrejection", function (event) {
    var reason = event.reason && event.reason.message ? event.reason.message : String(event.reason);
    record("unhandled rejection: " + reason);
  });

  window.addEventListener("load", function () {
    if (window.rollboardStarted) return;
    var board = document.getElementById("board");
    var why = errors.length ? errors[0] : "this browser did not run the page's modules";
    if (errors.length === 0) record(why);
    document.body.setAttribute("data-connection", "closed");
    if (!board) return sayOnPage(why);
    board.className = "board board--error";
    board.innerHTML = "";
    var text = document.createElement("p");
    text.className = "board__message";
    text.appendChild(document.createTextNode("This screen's browser could not start the dashboard"));
    var detail = document.createElement("small");
    detail.textContent = why;
    text.appendChild(detail);
    board.appendChild(text);
    reportWithoutModules(why);
  });

  /* A page without a board (/tv, the console): the reason at the top of its <main>, so a TV is not left blank. */
  function sayOnPage(why) {
    var main = document.querySelector("main");
    if (!main) return;
    var text = document.createElement("p");
    text.className = "notice";
    text.setAttribute("role", "alert");
    text.appendChild(document.createTextNode("This browser could not start this page: " + why));
    main.insertBefore(text, main.firstChild);
  }

  /*
   * The modules did not run, so nothing else will tell the server: a plain WebSocket of its own says why, once, after
   * the server's hello, and stays open so the screen stays in the operators' list (GET /api/v1/screens) with the reason.
   */
  function reportWithoutModules(why) {
    var path = /^\/(d|p)\/([^\/]+)\/?$/.exec(location.pathname);
    if (!path || typeof WebSocket !== "function") return;
    var query = (path[1] === "p" ? "playlist=" : "dashboard=") + path[2] + "&protocol=2";
    var name = null;
    try {
      var given = /[?&]name=([^&]*)/.exec(location.search);
      name = given ? decodeURIComponent(given[1]) : window.localStorage.getItem("rollboard.screenName");
    } catch (refused) {
      name = null;
    }
    if (name) query += "&name=" + encodeURIComponent(name);
    var socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?" + query);
    var sent = false;
    socket.onmessage = function (event) {
      if (sent || typeof event.data !== "string" || event.data.indexOf("\"hello\"") < 0) return;
      sent = true;
      socket.send(JSON.stringify({ type: "report", error: why }));
      socket.send(JSON.stringify({ type: "pause" }));
    };
  }
}());

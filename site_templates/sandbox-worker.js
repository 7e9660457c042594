// wixoss-judge's sandbox worker: the project's own Python (judge.site.sandbox, from the zip
// `judge build` makes of this package) under Pyodide, off the page's thread, so that a long
// replay never freezes the tab (the page can terminate this worker). Everything is loaded
// from the site itself: Pyodide from ../pyodide/, the package from ./judge.zip.
// docs/site.md, "The sandbox". Messages in: {id, type, ...}; out: {id, ok, value | error}.
//   {type: "vocabulary", lang}          -> the editor's choices and its words in `lang`
//   {type: "replay", text, path, lang}  -> judge check's lines and the page's replay sections
//   {type: "edit", text, op, args}      -> {text} with one board edit made, or {error}
//   {type: "propose", text, path, topic} -> {path, text}: the file to propose, or {error}
//   {type: "digests", items: [[path, text], ...]} -> the traces' SHA-256 (the corpus test)
"use strict";

var ROOT = new URL("../", self.location.href).href;
var HOME = "/home/pyodide/judge-sandbox";
var started = null;

function start() {
  if (!started) {
    started = new Promise(function (resolve) {
      importScripts(ROOT + "pyodide/pyodide.js");
      resolve(self.loadPyodide({ indexURL: ROOT + "pyodide/" }));
    }).then(function (pyodide) {
      // asked past the HTTP cache: the package of the build the page belongs to (docs/site.md)
      return fetch(ROOT + "sandbox/judge.zip", { cache: "no-cache" }).then(function (response) {
        if (!response.ok) {
          throw new Error("sandbox/judge.zip: HTTP " + response.status);
        }
        return response.arrayBuffer();
      }).then(function (buffer) {
        pyodide.unpackArchive(buffer, "zip", { extractDir: HOME });
        pyodide.runPython("import sys\nsys.path.insert(0, " + JSON.stringify(HOME) + ")\n" +
          "import judge.site.sandbox");
        return pyodide.pyimport("judge.site.sandbox");
      });
    });
  }
  return started;
}

/** One line of an error: a Python traceback's last line. */
function oneLine(error) {
  var text = String((error && error.message) || error).trim().split("\n");
  return text[text.length - 1];
}

self.onmessage = function (event) {
  var message = event.data || {};
  var began = performance.now();
  start().then(function (sandbox) {
    var value;
    if (message.type === "vocabulary") {
      value = sandbox.vocabulary_json(message.lang);
    } else if (message.type === "replay") {
      value = sandbox.replay_json(message.text, message.path, message.lang);
    } else if (message.type === "propose") {
      value = sandbox.propose_json(message.text, message.path, message.topic);
    } else if (message.type === "edit") {
      value = sandbox.edit_json(message.text, message.op, JSON.stringify(message.args));
    } else if (message.type === "digests") {
      value = sandbox.digests_json(JSON.stringify(message.items));
    } else {
      throw new Error("unknown request " + message.type);
    }
    self.postMessage({ id: message.id, ok: true, value: JSON.parse(value),
                       ms: performance.now() - began });
  }).catch(function (error) {
    self.postMessage({ id: message.id, ok: false, error: oneLine(error),
                       ms: performance.now() - began });
  });
};

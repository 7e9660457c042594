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

// ---------------------------------------------------------------- the compiled Python, kept
// What the engine compiles on its first use (the bytecode of every module of the package it
// imported) is kept in IndexedDB under the SHA-256 of the package zip, and unpacked beside the
// sources at the next start (after a reload, or offline), so that Python does not compile
// them again. One entry: a new build's zip replaces the previous one's. Without IndexedDB or
// crypto.subtle (an insecure context) nothing is kept. docs/site.md, "Start and offline".
var STORE = "compiled";
//: The state of the kept bytecode at this start, for the benchmark: "used", "kept", "none".
var compiled = "none";

function database() {
  return new Promise(function (resolve, reject) {
    var request = indexedDB.open("wixoss-judge-sandbox", 1);
    request.onupgradeneeded = function () {
      request.result.createObjectStore(STORE);
    };
    request.onsuccess = function () {
      resolve(request.result);
    };
    request.onerror = function () {
      reject(request.error);
    };
  });
}

function keptBytecode(digest) {
  return database().then(function (db) {
    return new Promise(function (resolve) {
      var request = db.transaction(STORE).objectStore(STORE).get(digest);
      request.onsuccess = function () {
        resolve(request.result || null);
      };
      request.onerror = function () {
        resolve(null);
      };
    });
  }).catch(function () {
    return null;
  });
}

function keepBytecode(digest, bytes) {
  return database().then(function (db) {
    return new Promise(function (resolve) {
      var transaction = db.transaction(STORE, "readwrite");
      var store = transaction.objectStore(STORE);
      store.clear(); // the previous build's
      store.put(bytes, digest);
      transaction.oncomplete = transaction.onerror = function () {
        resolve();
      };
    });
  }).catch(function () {});
}

function sha256(buffer) {
  if (!self.crypto || !self.crypto.subtle) {
    return Promise.resolve("");
  }
  return self.crypto.subtle.digest("SHA-256", buffer).then(function (hash) {
    return Array.prototype.map.call(new Uint8Array(hash), function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }, function () {
    return "";
  });
}

var digest = "";

function start() {
  if (!started) {
    // the package and the bytecode kept for it are fetched while Pyodide starts
    // (asked past the HTTP cache: the package of the build the page belongs to, docs/site.md)
    var bundle = fetch(ROOT + "sandbox/judge.zip", { cache: "no-cache" })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("sandbox/judge.zip: HTTP " + response.status);
        }
        return response.arrayBuffer();
      }).then(function (buffer) {
        return sha256(buffer).then(function (hex) {
          digest = hex;
          return hex ? keptBytecode(hex) : null;
        }).then(function (kept) {
          return [buffer, kept];
        });
      });
    started = Promise.all([new Promise(function (resolve) {
      importScripts(ROOT + "pyodide/pyodide.js");
      resolve(self.loadPyodide({ indexURL: ROOT + "pyodide/" }));
    }), bundle]).then(function (got) {
      var pyodide = got[0];
      var kept = got[1][1];
      pyodide.unpackArchive(got[1][0], "zip", { extractDir: HOME });
      if (kept) {
        pyodide.unpackArchive(kept, "zip", { extractDir: HOME });
        compiled = "used";
      }
      pyodide.runPython("import sys\nsys.path.insert(0, " + JSON.stringify(HOME) + ")\n" +
        "import judge.site.sandbox");
      self.pyodide = pyodide;
      return pyodide.pyimport("judge.site.sandbox");
    });
  }
  return started;
}

/** After the first answer: keep the bytecode of what the first use imported, once per
 * package (judge.site.sandbox.compiled_archive writes it as a zip). */
function keepCompiled(sandbox) {
  if (compiled !== "none" || !digest) {
    return;
  }
  compiled = "kept";
  try {
    var file = HOME + "/.compiled.zip";
    sandbox.compiled_archive(HOME, file);
    var bytes = self.pyodide.FS.readFile(file);
    self.pyodide.FS.unlink(file);
    keepBytecode(digest, bytes);
  } catch (error) {
    // nothing kept: the next start compiles again
  }
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
                       ms: performance.now() - began, compiled: compiled });
    keepCompiled(sandbox);
  }).catch(function (error) {
    self.postMessage({ id: message.id, ok: false, error: oneLine(error),
                       ms: performance.now() - began });
  });
};

// wixoss-judge's quiz page: asks the questions of the site's question bank (api/quiz/<lang>.json.gz,
// made by judge build from the engine's replays: judge/quiz), one at a time, with filters.
// Progress stays in this browser only (localStorage); a question answered wrong is asked again
// after two others. Keys: 1-5 answer, N (or Enter on "Next question") goes on. Plain
// JavaScript, no library; docs/site.md, "Judge training", describes it.
"use strict";
(function () {
  var root = document.getElementById("quiz");
  if (!root) {
    return;
  }
  var S = JSON.parse(document.getElementById("quiz-strings").textContent);
  var form = document.getElementById("quiz-filters");
  var score = document.getElementById("quiz-score");
  //: one record for every language: a question's id is the same in each
  var KEY = "wixoss-judge-quiz";
  //: a missed question comes back after this many others
  var AGAIN_AFTER = 2;
  var bankUrl = new URL(root.getAttribute("data-bank"), document.baseURI);
  var questions = [];
  var current = null;
  var answered = false;

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, k) { return String(values[k]); });
  }
  function load() {
    try {
      var data = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      return data && typeof data === "object" && data.q ? data : { q: {}, n: 0, since: 0 };
    } catch (e) {
      return { q: {}, n: 0, since: 0 };
    }
  }
  var progress = load();
  function save() {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(progress));
    } catch (e) { /* private mode: progress lasts as long as the page */ }
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function chosen() {
    var out = {};
    Array.prototype.forEach.call(form.querySelectorAll("select"), function (s) {
      out[s.name] = s.value;
    });
    return out;
  }
  function matches(q, f) {
    return (!f.topic || q.topic === f.topic) && (!f.rules || q.rules === f.rules) &&
      (!f.format || q.format === f.format) &&
      (!f.difficulty || String(q.difficulty) === f.difficulty);
  }
  function record(q) {
    return progress.q[q.id] || null;
  }
  function showScore() {
    var done = 0, right = 0, missed = 0;
    Object.keys(progress.q).forEach(function (id) {
      var r = progress.q[id];
      done += r.right + r.wrong;
      right += r.right;
      missed += r.missed ? 1 : 0;
    });
    score.textContent = fill(S.score, { right: right, done: done, missed: missed });
  }
  // the next question: a missed one once AGAIN_AFTER others were asked since, else one never
  // asked, else the one asked longest ago
  function pick() {
    var f = chosen();
    var pool = questions.filter(function (q) { return matches(q, f); });
    var others = pool.filter(function (q) { return q !== current; });
    if (!others.length) { others = pool; }
    if (!others.length) { return null; }
    var seen = function (q) { var r = record(q); return r ? r.seen : -1; };
    var byAge = function (a, b) { return seen(a) - seen(b); };
    var missed = others.filter(function (q) { var r = record(q); return r && r.missed; });
    if (missed.length && progress.since >= AGAIN_AFTER) {
      return { q: missed.sort(byAge)[0], again: true };
    }
    var fresh = others.filter(function (q) { return !record(q); });
    if (fresh.length) { return { q: fresh[0], again: false }; }
    var q = others.slice().sort(byAge)[0];
    return { q: q, again: !!(record(q) && record(q).missed) };
  }
  function ask(focus) {
    var next = pick();
    root.textContent = "";
    answered = false;
    if (!next) {
      current = null;
      root.appendChild(el("p", "notice", S.none));
      return;
    }
    current = next.q;
    var q = current;
    var art = el("article", "quiz-q");
    art.setAttribute("data-id", q.id);
    art.appendChild(el("p", "quiz-meta", [q.topic_label, q.rules_label, q.format_label,
      fill(S.difficulty, { num: q.difficulty })].join(" · ")));
    art.appendChild(el("h2", "", q.title));
    if (next.again) { art.appendChild(el("p", "quiz-again", S.again)); }
    if (q.change) { art.appendChild(el("p", "quiz-change", q.change)); }
    var board = el("div", "quiz-board");
    board.innerHTML = q.board; // the build's own SVG (judge/site/board.py), never user input
    art.appendChild(board);
    var steps = el("ol", "quiz-steps");
    q.steps.forEach(function (s) { steps.appendChild(el("li", "", s)); });
    art.appendChild(steps);
    if (q.choices.length) {
      art.appendChild(el("p", "quiz-choices", S.choices + " " + q.choices.join(" ")));
    }
    var title = art.querySelector("h2");
    title.tabIndex = -1;
    var heading = el("h3", "", q.question);
    heading.id = "quiz-question";
    art.appendChild(heading);
    var list = el("div", "quiz-answers");
    list.setAttribute("role", "group");
    list.setAttribute("aria-labelledby", "quiz-question");
    q.answers.forEach(function (a, i) {
      var b = el("button", "quiz-answer");
      b.type = "button";
      b.setAttribute("data-right", a.right ? "true" : "false");
      b.appendChild(el("span", "quiz-key", String(i + 1)));
      b.appendChild(el("span", "", a.text));
      b.addEventListener("click", function () { answer(i); });
      list.appendChild(b);
    });
    art.appendChild(list);
    var feedback = el("div", "quiz-feedback");
    feedback.setAttribute("aria-live", "polite");
    art.appendChild(feedback);
    root.appendChild(art);
    if (focus) { title.focus(); } // after "Next question": where the new question starts
  }
  function answer(i) {
    if (answered || !current) { return; }
    answered = true;
    var q = current;
    var a = q.answers[i];
    var r = record(q) || { right: 0, wrong: 0, missed: false, seen: 0 };
    r[a.right ? "right" : "wrong"] += 1;
    r.missed = !a.right;
    progress.n += 1;
    r.seen = progress.n;
    progress.since = r.missed ? 0 : progress.since + 1;
    progress.q[q.id] = r;
    save();
    showScore();
    var buttons = root.querySelectorAll(".quiz-answer");
    Array.prototype.forEach.call(buttons, function (b, j) {
      b.setAttribute("aria-pressed", j === i ? "true" : "false");
      // marked by a sign as well as a colour: the number gives way to ✓ or ✗
      if (q.answers[j].right) {
        b.classList.add("is-right");
        b.firstChild.textContent = "\u2713";
      }
      if (j === i && !a.right) {
        b.classList.add("is-wrong");
        b.firstChild.textContent = "\u2717";
      }
    });
    var box = root.querySelector(".quiz-feedback");
    box.appendChild(el("p", "quiz-verdict", a.right ? S.right : S.wrong));
    if (!a.right) {
      if (a.why) { box.appendChild(el("p", "quiz-why", a.why)); }
      if (a.breaks.length) {
        box.appendChild(el("p", "quiz-breaks", S.breaks + " " + a.breaks.join(" ")));
      }
      var right = q.answers.filter(function (x) { return x.right; })[0];
      box.appendChild(el("p", "quiz-right", S.answer_was + " " + right.text));
    }
    var link = el("a", "quiz-ruling", S.ruling);
    link.href = new URL(q.page, bankUrl).href;
    var p = el("p");
    p.appendChild(link);
    box.appendChild(p);
    var next = el("button", "quiz-next", S.next);
    next.type = "button";
    next.addEventListener("click", function () { ask(true); });
    box.appendChild(next);
    next.focus();
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !current) { return; }
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT") { return; }
    if (!answered && /^[1-5]$/.test(e.key) && Number(e.key) <= current.answers.length) {
      e.preventDefault();
      answer(Number(e.key) - 1);
    } else if (answered && (e.key === "n" || e.key === "N")) {
      e.preventDefault();
      ask(true);
    }
  });
  form.addEventListener("change", function () { current = null; ask(); });
  document.getElementById("quiz-reset").addEventListener("click", function () {
    progress = { q: {}, n: 0, since: 0 };
    save();
    showScore();
    score.textContent = S.reset_done + " " + score.textContent;
    current = null;
    ask();
  });
  root.appendChild(el("p", "quiz-status", S.loading));
  fetch(bankUrl.href).then(window.judgeGzipJson).then(function (bank) {
    questions = bank.questions;
    showScore();
    ask();
  }).catch(function () {
    root.textContent = "";
    root.appendChild(el("p", "notice", S.failed));
  });
})();

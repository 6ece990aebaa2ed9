"use strict";
// The editor's single-page app: plain JavaScript, no build step, no CDN.
const $ = (id) => document.getElementById(id);
let current = null; // the open task's editor JSON

function status(msg, isError) {
  $("status").textContent = msg;
  $("status").style.color = isError ? "#ffb3b3" : "";
}

async function api(path, body, contentType) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": contentType || "application/json"},
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
  const r = await fetch(path, init);
  const text = await r.text();
  let data = text;
  try { data = JSON.parse(text); } catch (e) { /* TriG */ }
  if (!r.ok) {
    const msg = (data && (data.message || data.error)) || r.statusText;
    throw new Error(r.status + ", " + msg + (data && data.details ? ": " + data.details.join("; ") : ""));
  }
  return data;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e[k] = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}

function value(b, name) { return b[name] ? b[name].value : ""; }

async function loadTasks() {
  try {
    const res = await api("/api/getTasksFromGraphStore", {endpoint: $("endpoint").value});
    const ul = $("tasks");
    ul.textContent = "";
    for (const b of res.tasks.results.bindings) {
      ul.append(el("li", {}, el("button", {"data-iri": value(b, "iri"), onclick: () => openTask(value(b, "iri"))}, value(b, "title")),
        el("small", {}, [value(b, "editor"), value(b, "date").slice(0, 10)].filter(Boolean).join(" · "))));
    }
    status(res.message);
  } catch (e) { status(e.message, true); }
}

async function loadSources() {
  try {
    const res = await api("/api/getSources");
    const ul = $("sources");
    ul.textContent = "";
    for (const b of res.sources.results.bindings) {
      ul.append(el("li", {}, el("button", {onclick: () => openSource(value(b, "iri"))}, value(b, "title")),
        el("small", {}, value(b, "editor") + " · " + value(b, "date").slice(0, 10))));
    }
  } catch (e) { status(e.message, true); }
}

// chopprSentences lists a Choppr document's sentences in document order.
function chopprSentences(doc) {
  const nodes = {};
  for (const n of doc["@graph"] || []) nodes[n.IRI] = n;
  const out = [];
  const seen = new Set();
  const walk = (iri, depth) => {
    const n = nodes[iri];
    if (!n || seen.has(iri) || depth > 50) return;
    seen.add(iri);
    if (n.content !== undefined && !n.children) out.push(n);
    for (const c of [].concat(n.children || [])) walk(typeof c === "string" ? c : c.IRI, depth + 1);
  };
  for (const n of doc["@graph"] || []) if ([].concat(n["@type"] || []).includes("src:Source")) walk(n.IRI, 0);
  return out;
}

async function openSource(iri) {
  try {
    const res = await api("/api/getSource", {iri});
    const doc = await api("/api/process_graph", res.source, "text/turtle");
    $("task-view").hidden = true;
    $("source-view").hidden = false;
    const root = (doc["@graph"] || []).find((n) => [].concat(n["@type"] || []).includes("src:Source")) || {};
    $("source-title").textContent = root.title || iri;
    const div = $("source-text");
    div.textContent = "";
    for (const s of chopprSentences(doc)) div.append(el("p", {}, el("small", {}, s.id + " "), s.content));
    status(res.message);
  } catch (e) { status(e.message, true); }
}

function constructText(c, names) {
  if (!c) return "";
  let s;
  if (c.frame) s = names[c.frame] || c.frame;
  else if (c.children && c.children.length) {
    const parts = c.children.map((x) => constructText(x, names));
    s = parts.length > 1 ? "(" + parts.join(" " + (c.operatorToJoinChildren === "or" ? "OF" : "EN") + " ") + ")" : parts[0];
  } else return "";
  return c.isNegated ? "NIET " + s : s;
}

function renderTask(task) {
  current = task;
  $("source-view").hidden = true;
  $("task-view").hidden = false;
  $("download").hidden = true;
  $("task-title").textContent = task.label;
  $("task-meta").textContent = [task.hasEditor, task.description].filter(Boolean).join(" — ");
  const names = {};
  for (const f of task.frames) names[f.id] = f.label;
  const acts = $("acts"), facts = $("facts"), duties = $("duties");
  acts.textContent = facts.textContent = duties.textContent = "";
  for (const f of task.frames) {
    if (f.typeId === "act") {
      const roles = [["actor", f.actorId], ["handeling", f.actionId], ["object", f.objectId], ["belanghebbende", f.recipientId]]
        .filter((r) => r[1]).map((r) => r[0] + ": " + names[r[1]]).join(", ");
      const pre = constructText(f.precondition, names);
      acts.append(el("div", {class: "frame", "data-frame": f.id}, el("b", {}, f.label), el("div", {}, f.act),
        el("div", {class: "sub"}, roles), pre ? el("div", {class: "sub"}, "voorwaarde: " + pre) : null,
        f.creates.length ? el("div", {class: "sub"}, "creëert: " + f.creates.map((x) => names[x]).join(", ")) : null,
        f.terminates.length ? el("div", {class: "sub"}, "beëindigt: " + f.terminates.map((x) => names[x]).join(", ")) : null));
    } else if (f.typeId === "fact") {
      const anchors = f.annotations.flatMap((a) => a.snippets.map((s) => "“" + s.text + "” (" + s.sentenceId + " " + s.characterRange.join("–") + ")"));
      facts.append(el("div", {class: "frame", "data-frame": f.id}, el("b", {}, f.label), " ", el("span", {class: "sub"}, f.subTypeIds.join(", ")),
        el("div", {}, f.fact), anchors.length ? el("div", {class: "sub"}, anchors.join("; ")) : null));
    } else {
      duties.append(el("div", {class: "frame", "data-frame": f.id}, el("b", {}, f.label), el("div", {}, f.claimduty),
        el("div", {class: "sub"}, "plicht: " + (names[f.dutyId] || "—") + ", rechthebbende: " + (names[f.claimantId] || "—") + ", plichthouder: " + (names[f.holderId] || "—"))));
    }
  }
  // Source text with the anchored ranges highlighted.
  const text = $("text");
  text.textContent = "";
  const ranges = {};
  for (const f of task.frames) for (const a of f.annotations || []) for (const s of a.snippets) {
    (ranges[s.documentId + s.sentenceIri] ||= []).push(s.characterRange);
  }
  for (const d of task.sourceDocs) {
    const base = d.jsonLd["@context"]["@base"];
    for (const s of chopprSentences(d.jsonLd)) {
      const rs = (ranges[base + s.IRI] || []).slice().sort((a, b) => a[0] - b[0]);
      const p = el("p", {}, el("small", {}, s.id + " "));
      let at = 0;
      for (const [a, b] of rs) {
        if (a < at) continue;
        p.append(s.content.slice(at, a), el("mark", {}, s.content.slice(a, b)));
        at = b;
      }
      p.append(s.content.slice(at));
      text.append(p);
    }
  }
}

async function openTask(iri) {
  try {
    const res = await api("/api/getTask", {iri});
    $("trig").textContent = res.task;
    renderTask(await api("/api/process_graph", res.task, "text/turtle"));
    status(res.message);
  } catch (e) { status(e.message, true); }
}

async function convert() {
  const trig = await api("/api/process_and_save", current);
  $("trig").textContent = trig;
  const a = $("download");
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([trig], {type: "application/trig"}));
  a.download = (current.label || "task").replace(/[^A-Za-z0-9_-]+/g, "-") + ".trig";
  a.hidden = false;
  return trig;
}

$("convert").onclick = async () => {
  try { await convert(); status("Successful conversion to RDF!"); }
  catch (e) { status("An error occurred while converting data to rdf! Details:" + e.message, true); }
};

$("save").onclick = async () => {
  try {
    // As the upstream GUI: a fresh task and interpretation IRI per save.
    const ns = "http://ontology.tno.nl/normengineering/editor#";
    const id = crypto.randomUUID();
    current = Object.assign({}, current, {id: ns + "task-" + id, interpretation: ns + "interpretation-" + id});
    const trig = await convert();
    const res = await api("/api/saveTaskAtGraphStore", {task: trig});
    status(res.message);
    loadTasks();
  } catch (e) { status(e.message, true); }
};

$("predict-form").onsubmit = async (ev) => {
  ev.preventDefault();
  try {
    const res = await api("/api/predict", {text: $("sentence").value, model: $("model").value});
    const p = $("prediction");
    p.textContent = "";
    for (const [token, label] of res.predicted_entities) p.append(el("span", {class: "tag " + label, title: label}, token));
    p.append(el("small", {}, " model: " + res.model));
  } catch (e) { status(e.message, true); }
};

$("endpoint-form").onsubmit = (ev) => { ev.preventDefault(); loadTasks(); };

// Deep links: ?task=<iri> opens a task (&convert=1 also converts it to
// TriG), ?sentence=<text> runs a prediction. Bookmarks and the browser test
// use them.
async function start() {
  const q = new URLSearchParams(location.search);
  await Promise.all([loadTasks(), loadSources()]);
  if (q.get("sentence")) {
    $("sentence").value = q.get("sentence");
    if (q.get("model")) $("model").value = q.get("model");
    $("predict-form").requestSubmit();
  }
  if (q.get("task")) {
    await openTask(q.get("task"));
    if (q.get("convert") && current) {
      try { await convert(); status("Successful conversion to RDF!"); }
      catch (e) { status("An error occurred while converting data to rdf! Details:" + e.message, true); }
    }
  }
}
start();

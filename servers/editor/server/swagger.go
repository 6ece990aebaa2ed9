package server

import "net/http"

// swaggerPage is a self-contained API page (no CDN): it lists the OpenAPI
// document's operations and has a try-it form for every POST.
func swaggerPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(swaggerHTML))
}

const swaggerHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>regelkit editor API</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}
.op{border:1px solid #ccc;border-radius:6px;margin:1rem 0;padding:.6rem 1rem}
.m{font-weight:bold;display:inline-block;width:4rem}
textarea{width:100%;height:6rem;font-family:monospace}
pre{background:#f5f5f5;padding:.5rem;overflow:auto;max-height:20rem}
</style></head><body>
<h1>regelkit editor API</h1>
<p>OpenAPI document: <a href="/api/openapi.json">/api/openapi.json</a>. API key (sent as X-API-KEY):
<input id="key" size="30"></p>
<div id="ops">Loading…</div>
<script>
const examples = {
  "/api/predict": {text: "Het college verleent bijstand aan de aanvrager.", model: "regelkit-rules-nl"},
  "/api/getTasksFromGraphStore": {endpoint: "local/editor/sparql"},
  "/api/getTasksFromTriply": {endpoint: "local/editor/sparql"}
};
fetch("/api/openapi.json").then(r => r.json()).then(doc => {
  const ops = document.getElementById("ops");
  ops.textContent = "";
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const div = document.createElement("div");
      div.className = "op";
      const head = document.createElement("div");
      head.innerHTML = '<span class="m"></span><code></code> — <span></span>';
      head.children[0].textContent = method.toUpperCase();
      head.children[1].textContent = path;
      head.children[2].textContent = op.summary || "";
      div.appendChild(head);
      const body = document.createElement("textarea");
      const ex = examples[path];
      body.value = ex ? JSON.stringify(ex, null, 1) : (method === "post" ? "{}" : "");
      if (method === "post") div.appendChild(body);
      const btn = document.createElement("button");
      btn.textContent = "Try it";
      const out = document.createElement("pre");
      btn.onclick = async () => {
        const init = {method: method.toUpperCase(), headers: {"X-API-KEY": document.getElementById("key").value}};
        if (method === "post") { init.body = body.value; init.headers["Content-Type"] = path === "/api/process_graph" ? "text/turtle" : "application/json"; }
        const r = await fetch(path, init);
        out.textContent = r.status + " " + r.statusText + "\n\n" + (await r.text());
      };
      div.appendChild(btn);
      div.appendChild(out);
      ops.appendChild(div);
    }
  }
});
</script></body></html>
`

// Times the npm package n3 on the benchmark document, for comparison with
// BenchmarkParseTurtle and BenchmarkParseGraphTurtle (see doc.go).
//
//   mkdir -p /tmp/n3bench && cd /tmp/n3bench && npm install n3
//   go run ./sparql/graph/internal/benchdata/benchturtle -n 500000 > /tmp/n3bench/bench.ttl
//   NODE_PATH=/tmp/n3bench/node_modules node sparql/graph/testdata/n3-parse.js /tmp/n3bench/bench.ttl
const fs = require('fs');
const N3 = require('n3');

const file = process.argv[2];
const runs = 3;

function parseOnly(text) {
  return new Promise((resolve, reject) => {
    let n = 0;
    new N3.Parser({ format: 'text/turtle' }).parse(text, (err, quad) => {
      if (err) reject(err);
      else if (quad) n++;
      else resolve(n);
    });
  });
}

function parseStore(text) {
  return new Promise((resolve, reject) => {
    const store = new N3.Store();
    new N3.Parser({ format: 'text/turtle' }).parse(text, (err, quad) => {
      if (err) reject(err);
      else if (quad) store.addQuad(quad);
      else resolve(store);
    });
  });
}

(async () => {
  const text = fs.readFileSync(file, 'utf8');
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const n = await parseOnly(text);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`n3 parse: ${n} triples in ${s.toFixed(3)} s = ${Math.round(n / s)} triples/s`);
  }
  for (let i = 0; i < runs; i++) {
    global.gc && global.gc();
    const before = process.memoryUsage().heapUsed;
    const t0 = process.hrtime.bigint();
    const store = await parseStore(text);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    global.gc && global.gc();
    const after = process.memoryUsage().heapUsed;
    console.log(`n3 parse into N3.Store: ${store.size} triples in ${s.toFixed(3)} s = ${Math.round(store.size / s)} triples/s, ` +
      `${((after - before) / store.size).toFixed(1)} heap bytes/triple`);
  }
})();

import { openSync, readdirSync, statSync, closeSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";
import { initFingerprints } from "./dist/ingest/fingerprint.js";
await initFingerprints();
import { chunkReader } from "./dist/ingest/chunk-reader.js";
import { fileChunks, prepareChunk } from "./dist/ingest/read-batch.js";
const root = "/tmp/bwg/corpus-10000-1073741824-s7-g2/agent/sessions";
const files = [];
for (const d of readdirSync(root)) for (const f of readdirSync(join(root, d))) files.push(join(root, d, f));
const chunks = [];
let bytes = 0;
for (const f of files.filter((_, i) => i % 20 === 0)) {
  const fd = openSync(f, "r"); const size = statSync(f).size;
  const reader = chunkReader(fd, 0, size, 64 << 10);
  for (const c of fileChunks(reader, 8 << 20, 1 << 20)) { chunks.push(prepareChunk(c.step, c.start, c.bytesRead)); bytes += c.bytesRead; }
  closeSync(fd);
}
let ev = 0, fr = 0; for (const c of chunks) { ev += c.events.length; for (const e of c.events) fr += e[16].length; }
console.log({ chunks: chunks.length, MB: (bytes / 1e6).toFixed(1), ev, fr });
for (let r = 0; r < 3; r++) {
  let t0 = performance.now(); const ser = chunks.map((c) => v8.serialize(c)); let t1 = performance.now();
  for (const s of ser) v8.deserialize(s); let t2 = performance.now();
  console.log(`serialize ${(t1 - t0).toFixed(0)} ms, deserialize ${(t2 - t1).toFixed(0)} ms, ${(ser.reduce((n, s) => n + s.length, 0) / 1e6).toFixed(1)} MB`);
}

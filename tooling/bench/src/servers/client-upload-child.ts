// A child process that measures @lrg/client's resident memory for one upload from a file: it warms up with a
// small upload, settles, resets its peak (VmHWM), uploads the document, and reports the peak's growth on stdout.
// Run by src/client.ts, with and without the gateway's runtime settings (its serve script: MALLOC_ARENA_MAX=1, a small young generation).
import { setTimeout as sleep } from "node:timers/promises";
import { createGatewayClient } from "@lrg/client";
import { resetPeak, residentOf } from "../memory.js";

const [baseUrl, username, password, warmup, document] = process.argv.slice(2);
if (!baseUrl || !username || !password || !warmup || !document)
  throw new Error("usage: client-upload-child <url> <username> <password> <warm-up file> <file>");
const gc = (globalThis as { gc?: () => void }).gc;
const client = createGatewayClient({ baseUrl, username, password });
await client.uploadDocument(warmup, { documentType: "TR1" });
gc?.();
await sleep(300);
gc?.();
const before = residentOf("self");
const peakWasReset = resetPeak("self");
let sampled = before.rss;
const sampler = setInterval(() => (sampled = Math.max(sampled, residentOf("self").rss)), 10);
const uploaded = await client.uploadDocument(document, { documentType: "TR1" });
clearInterval(sampler);
const after = residentOf("self");
const peak = Math.max(peakWasReset ? after.peak : 0, sampled);
process.stdout.write(
  `${JSON.stringify({ documentId: uploaded.document_id, bytes: uploaded.file_length, baselineRss: before.rss, peakRss: peak, growth: peak - before.rss, peakWasReset })}\n`,
);

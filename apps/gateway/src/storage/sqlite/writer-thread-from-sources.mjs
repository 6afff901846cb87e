// The writer thread's entry when the store runs from its TypeScript sources (the gateway's own tests): tsx compiles
// them in the thread too. The build starts writer-thread.js directly.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);

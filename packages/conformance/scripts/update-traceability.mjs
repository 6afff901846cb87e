#!/usr/bin/env node
// Rewrites the Conformance test column of spec/TRACEABILITY.md from the suite (run after `pnpm build`).
import { writeFileSync } from "node:fs";
import { readTraceability, renderTraceability } from "../dist/traceability.js";
import { traceabilityFile } from "../dist/spec-files.js";

const { text } = readTraceability();
const rendered = renderTraceability(text);
if (rendered !== text) writeFileSync(traceabilityFile(), rendered);
console.log(rendered === text ? "TRACEABILITY.md is up to date" : "TRACEABILITY.md: Conformance test column rewritten");

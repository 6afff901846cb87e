// One generator of bad input, shared by the negative properties (one bad request at a time, a documented 4xx
// demanded) and the fuzzer (`lrg-conformance --fuzz N`: bad requests mixed with valid ones at volume).
export * from "./requests.js";
export { brokenValue, junkText, validValue, type ValueOverrides } from "./values.js";

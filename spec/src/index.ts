// @lrg/spec as a library: the bundled documents, the constants generated from them, and the typed reader.
// The response checker is `@lrg/spec/check`; the generated types are `@lrg/spec/types/openapi` and `/sandbox`.
export * from "./artifacts.js";
export * from "./documents.js";
export * from "./generated/constants.js";
export * from "./reader.js";

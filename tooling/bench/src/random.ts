/** The gateway's small seeded generator (mulberry32): the same seed gives the same sequence, for reproducible runs. */
export { seededRandom } from "./gateway-internals.js";

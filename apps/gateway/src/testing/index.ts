/** Helpers for testing many instances: a throwaway PostgreSQL server and a loopback round-robin balancer. */
export { postgresBinDir, startPostgres, type TestPostgres } from "./postgres.js";
export { startRoundRobin, type RoundRobin } from "./round-robin.js";

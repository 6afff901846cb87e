import type { Server } from "node:net";

/**
 * Counts the connections this gateway's listeners accept, for work that holds the event loop (the embedded store's
 * group commit) to let connections that are arriving in a burst be accepted first.
 *
 * libuv accepts one connection per turn of the event loop. A turn that also runs a batch of SQLite writes lasts as
 * long as the batch, so when 32 clients connect at once to a busy gateway, each is accepted one batch after the one
 * before it, and each new connection makes the next batch longer: the last first request waited 200–500 ms where
 * the others took 40–60 ms.
 */
export class ConnectionArrivals {
  /** Connections accepted so far. */
  count = 0;

  /** Counts the connections `server` accepts from now on. */
  watch(server: Server): void {
    server.on("connection", () => {
      this.count += 1;
    });
  }
}

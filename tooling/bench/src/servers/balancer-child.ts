// A child process running the gateway's loopback round-robin balancer (`startRoundRobin`) over the upstream URLs it
// is sent, balancing as it is told, so that neither the load generator nor a gateway shares its event loop. Stops on
// "close".
import { startRoundRobin, type Balancing } from "@lrg/gateway/testing";

process.once("message", ({ upstreams, balancing }: { upstreams: string[]; balancing: Balancing }) => {
  void startRoundRobin(upstreams, balancing).then((balancer) => {
    process.on("message", (message) => {
      if (message === "close") void balancer.close().then(() => process.disconnect());
    });
    process.send?.({ url: balancer.url });
  });
});

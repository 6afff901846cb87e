// A child process running the gateway's loopback round-robin balancer (`startRoundRobin`) over the upstream URLs it
// is sent, so that neither the load generator nor a gateway shares its event loop. Stops on "close".
import { startRoundRobin } from "@lrg/gateway/testing";

process.once("message", (upstreams: string[]) => {
  void startRoundRobin(upstreams).then((balancer) => {
    process.on("message", (message) => {
      if (message === "close") void balancer.close().then(() => process.disconnect());
    });
    process.send?.({ url: balancer.url });
  });
});

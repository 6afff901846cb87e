// One gateway in this process for the fuzzer: the gateway's test harness (a temporary data directory removed at
// stop, a random sandbox token, logs off, 127.0.0.1 and a free port).
export { startTestGateway as startInProcessGateway, type TestGateway as InProcessGateway } from "@lrg/gateway/testing";

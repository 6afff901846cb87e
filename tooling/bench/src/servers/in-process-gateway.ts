// One gateway in this process for the client resilience test (it reads the gateway's store and data directory):
// the gateway's test harness (a temporary data directory removed at stop, a random sandbox token, logs off,
// 127.0.0.1 and a free port).
export { startTestGateway as startInProcessGateway, type TestGateway as InProcessGateway } from "@lrg/gateway/testing";

/** Request counts and latencies per route, method and status, in the Prometheus text format. */
export declare class Metrics {
    #private;
    observe(method: string, route: string, status: number, durationMs: number): void;
    render(): string;
}

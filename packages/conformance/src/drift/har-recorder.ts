// A transport for a client (the `fetch` option of @lrg/client) that records each exchange as a HAR 1.2 entry, as a
// recording proxy would: JSON and text bodies as text, other answers in base64, a streamed upload's bytes left out (its
// size unknown). For the tests and the benchmark of drift, which need real traffic of the client to a real gateway.

/** A transport: the finished request in, its answer out. */
type Fetch = (request: Request) => Promise<Response>;

/** A HAR 1.2 entry (the members `lrg drift` reads, and those HAR requires). */
export type HarEntry = Record<string, unknown> & {
  request: Record<string, unknown> & { url: string; method: string; headers: { name: string; value: string }[] };
  response: Record<string, unknown> & { status: number; headers: { name: string; value: string }[] };
};

const textual = (contentType: string | null) => /json|text|xml/.test(contentType ?? "");

/** A HAR 1.2 document of `entries`. */
export function harOf(entries: readonly HarEntry[]): string {
  return JSON.stringify({ log: { version: "1.2", creator: { name: "lrg-test", version: "1" }, entries } });
}

/** A fetch that passes each request on to `base` and records it with its answer in `entries`. */
export function harRecorder(base: Fetch = (request) => globalThis.fetch(request, { window: null })): {
  fetch: Fetch;
  entries: HarEntry[];
} {
  const entries: HarEntry[] = [];
  const fetch: Fetch = async (request) => {
    const started = Date.now();
    const sentText =
      request.body !== null && textual(request.headers.get("content-type")) ? await request.clone().text() : undefined;
    const response = await base(request);
    const bytes = Buffer.from(await response.clone().arrayBuffer());
    const url = new URL(request.url);
    const contentType = response.headers.get("content-type");
    entries.push({
      startedDateTime: new Date(started).toISOString(),
      time: Date.now() - started,
      request: {
        method: request.method,
        url: request.url,
        httpVersion: "HTTP/1.1",
        headers: [...request.headers].map(([name, value]) => ({ name, value })),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        cookies: [],
        headersSize: -1,
        bodySize: request.body === null ? 0 : sentText === undefined ? -1 : Buffer.byteLength(sentText),
        ...(sentText !== undefined && {
          postData: { mimeType: request.headers.get("content-type") ?? "", text: sentText },
        }),
      },
      response: {
        status: response.status,
        statusText: response.statusText,
        httpVersion: "HTTP/1.1",
        headers: [...response.headers].map(([name, value]) => ({ name, value })),
        cookies: [],
        content: {
          size: bytes.length,
          mimeType: contentType ?? "",
          ...(textual(contentType)
            ? { text: bytes.toString("utf8") }
            : { text: bytes.toString("base64"), encoding: "base64" }),
        },
        redirectURL: response.headers.get("location") ?? "",
        headersSize: -1,
        bodySize: bytes.length,
      },
      cache: {},
      timings: { send: 0, wait: Date.now() - started, receive: 0 },
    });
    return response;
  };
  return { fetch, entries };
}

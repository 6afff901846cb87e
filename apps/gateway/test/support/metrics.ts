/**
 * One figure of a gateway's `/metrics` (Prometheus text): the value of the line named `name`, whatever its labels.
 * Throws when there is no such line, so that a renamed figure fails the test that reads it.
 */
export async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text);
  if (!line) throw new Error(`/metrics has no ${name}`);
  return Number(line[1]);
}

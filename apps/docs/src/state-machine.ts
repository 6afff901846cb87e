// Draws the application state machine as SVG from the spec's `x-lrg-transitions`: a layered layout, top to
// bottom, computed here so the picture always matches the list the gateway enforces.
import { APPLICATION_STATUSES, transitions, type Transition as SpecTransition } from "@lrg/spec";

/** A transition as the picture draws it: the spec's, or one of a machine the list may grow into (tests). */
export type Transition = Omit<SpecTransition, "from" | "to" | "notifications"> & {
  from: string;
  to: string;
  notifications: Pick<SpecTransition["notifications"], "v1"> & Partial<SpecTransition["notifications"]>;
};

/** A state machine to draw: its statuses in order and the transitions between them. */
export interface StateMachine {
  statuses: readonly string[];
  transitions: readonly Transition[];
}

/** The spec's application state machine (ApplicationStatus and its `x-lrg-transitions`). */
export const specStateMachine: StateMachine = { statuses: APPLICATION_STATUSES, transitions };

const MARGIN = 24;
const START_SPACE = 64; // room above the first row for the start dot and its arrow
const NODE_WIDTH = 236;
const NODE_HEIGHT = 46;
const COLUMN = 270; // distance between the centres of neighbouring boxes in a row
const GAP = 196; // between rows: holds the edge labels
const LABEL_AT = 0.62; // where along a short edge its label sits (0 = source, 1 = target): apart from its siblings'
const LINE = 15;
const LABEL_PADDING = 6;
const TRIGGER_CHARS = 26;
const TYPE_CHARS = 26;
const SANS_CHAR = 6.3; // average advance of the 12px sans-serif labels, for sizing their backgrounds
const MONO_CHAR = 6.7; // advance of the 11px monospace notification types
const LEGEND_HEIGHT = 58;

/** A status box. */
export interface PlacedNode {
  status: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** No transition leaves it. */
  terminal: boolean;
  /** Where a submitted application starts. */
  initial: boolean;
}

/** One line of an edge label: the trigger in prose, the notification type in code. */
export interface LabelLine {
  text: string;
  kind: "trigger" | "notification";
}

/** A transition drawn as a path with its label. */
export interface PlacedEdge {
  transition: Transition;
  /** SVG path data. */
  path: string;
  label: { x: number; y: number; width: number; height: number; lines: LabelLine[] };
  /** Drawn below the columns because it goes against the left-to-right order (a cycle). */
  back: boolean;
}

/** Everything needed to draw the picture. */
export interface StateMachineLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/** Splits text into lines of at most `width` characters at spaces (or after `.` in dotted names). */
export function wrap(text: string, width: number, separator: " " | "." = " "): string[] {
  const words = separator === " " ? text.split(/\s+/).filter(Boolean) : text.split(/(?<=\.)/);
  const lines: string[] = [];
  let current = "";
  for (const word of words) {
    const joined = current === "" ? word : separator === " " ? `${current} ${word}` : `${current}${word}`;
    if (joined.length > width && current !== "") {
      lines.push(current);
      current = word;
    } else {
      current = joined;
    }
  }
  if (current !== "") lines.push(current);
  return lines;
}

function labelLines(transition: Transition): LabelLine[] {
  return [
    ...wrap(transition.trigger, TRIGGER_CHARS).map((text) => ({ text, kind: "trigger" as const })),
    ...wrap(transition.notifications.v1, TYPE_CHARS, ".").map((text) => ({ text, kind: "notification" as const })),
  ];
}

function labelBox(lines: LabelLine[], cx: number, cy: number): PlacedEdge["label"] {
  const width =
    Math.max(...lines.map((line) => line.text.length * (line.kind === "trigger" ? SANS_CHAR : MONO_CHAR))) +
    2 * LABEL_PADDING;
  const height = lines.length * LINE + 2 * LABEL_PADDING;
  return { x: cx - width / 2, y: cy - height / 2, width, height, lines };
}

/** Edges that close a cycle, found by a depth-first walk in enum order; the rest form a DAG. */
function backEdges(machine: StateMachine): Set<Transition> {
  const back = new Set<Transition>();
  const state = new Map<string, "open" | "done">();
  const visit = (status: string): void => {
    state.set(status, "open");
    for (const transition of machine.transitions.filter((t) => t.from === status)) {
      const next = state.get(transition.to);
      if (next === "open") back.add(transition);
      else if (next === undefined) visit(transition.to);
    }
    state.set(status, "done");
  };
  for (const status of machine.statuses) if (!state.has(status)) visit(status);
  return back;
}

/** Column of each status: the longest chain of forward transitions that leads to it. */
function layersOf(machine: StateMachine, forward: Transition[]): Map<string, number> {
  const layer = new Map(machine.statuses.map((status) => [status, 0]));
  // Relaxing |V| times settles longest paths in a DAG without needing a topological order first.
  for (let round = 0; round < machine.statuses.length; round += 1) {
    for (const t of forward) layer.set(t.to, Math.max(layer.get(t.to) ?? 0, (layer.get(t.from) ?? 0) + 1));
  }
  return layer;
}

interface Slot {
  id: string;
  layer: number;
}

/** Lays out the state machine: columns by longest path, rows ordered by barycentre to keep edges short. */
export function layoutStateMachine(machine: StateMachine): StateMachineLayout {
  const back = backEdges(machine);
  const forward = machine.transitions.filter((t) => !back.has(t));
  const layer = layersOf(machine, forward);
  const layerCount = Math.max(...layer.values()) + 1;

  // Slots: one per status, plus a waypoint in every column that a long edge crosses.
  const columns: Slot[][] = Array.from({ length: layerCount }, () => []);
  for (const status of machine.statuses)
    columns[layer.get(status) ?? 0]?.push({ id: status, layer: layer.get(status) ?? 0 });
  const chains = new Map<Transition, string[]>();
  for (const t of forward) {
    const chain = [t.from];
    for (let l = (layer.get(t.from) ?? 0) + 1; l < (layer.get(t.to) ?? 0); l += 1) {
      const id = `${t.from}->${t.to}@${l}`;
      columns[l]?.push({ id, layer: l });
      chain.push(id);
    }
    chain.push(t.to);
    chains.set(t, chain);
  }
  const segments = [...chains.values()].flatMap((chain) =>
    chain.slice(1).map((to, i) => [chain[i] as string, to] as const),
  );

  // Barycentre ordering, a few sweeps each way; ties keep the enum order.
  const index = new Map<string, number>();
  const reindex = (): void => columns.forEach((column) => column.forEach((slot, i) => index.set(slot.id, i)));
  reindex();
  // Boxes with neighbours in the sweep's direction are sorted by the mean position of those neighbours; the
  // others keep their places, so unrelated statuses do not jump across the row.
  const sweep = (l: number, neighbours: (id: string) => string[]): void => {
    const column = columns[l];
    if (column === undefined) return;
    const centre = (slot: Slot): number | undefined => {
      const positions = neighbours(slot.id).map((id) => index.get(id) ?? 0);
      return positions.length === 0 ? undefined : positions.reduce((a, b) => a + b, 0) / positions.length;
    };
    const movable = column
      .map((slot, i) => ({ slot, key: centre(slot), i }))
      .filter((entry): entry is { slot: Slot; key: number; i: number } => entry.key !== undefined)
      .sort((a, b) => a.key - b.key || a.i - b.i);
    const places = column.flatMap((slot, i) => (centre(slot) === undefined ? [] : [i]));
    const next = [...column];
    places.forEach((place, k) => {
      const entry = movable[k];
      if (entry !== undefined) next[place] = entry.slot;
    });
    columns[l] = next;
    reindex();
  };
  const predecessors = (id: string): string[] => segments.filter(([, to]) => to === id).map(([from]) => from);
  const successors = (id: string): string[] => segments.filter(([from]) => from === id).map(([, to]) => to);
  for (let round = 0; round < 4; round += 1) {
    for (let l = 1; l < layerCount; l += 1) sweep(l, predecessors);
    for (let l = layerCount - 2; l >= 0; l -= 1) sweep(l, successors);
  }

  // Coordinates: layers top to bottom, each row centred horizontally.
  const columnsWide = Math.max(...columns.map((column) => column.length));
  const top = new Map<string, { x: number; y: number }>();
  columns.forEach((column, l) =>
    column.forEach((slot, i) => {
      const centre = MARGIN + (i + 0.5 + (columnsWide - column.length) / 2) * COLUMN;
      top.set(slot.id, { x: centre - NODE_WIDTH / 2, y: MARGIN + START_SPACE + l * (NODE_HEIGHT + GAP) });
    }),
  );
  const at = (id: string): { x: number; y: number } => top.get(id) ?? { x: 0, y: 0 };
  const bodyWidth = 2 * MARGIN + columnsWide * COLUMN;
  const bodyHeight = MARGIN + START_SPACE + layerCount * NODE_HEIGHT + (layerCount - 1) * GAP + MARGIN;

  const hasIncoming = new Set(machine.transitions.map((t) => t.to));
  const hasOutgoing = new Set(machine.transitions.map((t) => t.from));
  const nodes: PlacedNode[] = machine.statuses.map((status) => ({
    status,
    ...at(status),
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    terminal: !hasOutgoing.has(status),
    initial: !hasIncoming.has(status) && hasOutgoing.has(status),
  }));

  // Spread the ends of the edges that share a side of a box, in the order of the boxes at their other ends.
  const ports = (
    side: "out" | "in",
    id: string,
    other: (segment: readonly [string, string]) => string,
  ): Map<string, number> => {
    const mine = segments.filter((segment) => (side === "out" ? segment[0] : segment[1]) === id);
    mine.sort((a, b) => at(other(a)).x - at(other(b)).x);
    const spread = NODE_WIDTH * 0.6;
    return new Map(
      mine.map((segment, i) => [
        other(segment),
        mine.length === 1 ? 0 : -spread / 2 + (spread * i) / (mine.length - 1),
      ]),
    );
  };
  const centreX = (id: string): number => at(id).x + NODE_WIDTH / 2;
  const bezier = (p0: number, p1: number, p2: number, p3: number, t: number): number =>
    (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3;

  let backDepth = 0;
  const edges: PlacedEdge[] = machine.transitions.map((transition) => {
    const lines = labelLines(transition);
    const chain = chains.get(transition);
    if (chain === undefined) {
      // A move back to an earlier row: an arc out to the right of the rows.
      backDepth += 1;
      const from = at(transition.from);
      const to = at(transition.to);
      const sy = from.y + NODE_HEIGHT / 2;
      const ty = to.y + NODE_HEIGHT / 2;
      const right = bodyWidth + backDepth * 220;
      const path = `M ${from.x + NODE_WIDTH} ${sy} C ${right} ${sy} ${right} ${ty} ${to.x + NODE_WIDTH} ${ty}`;
      return { transition, path, label: labelBox(lines, right - 110, (sy + ty) / 2), back: true };
    }
    const parts: string[] = [];
    const first = chain[0] as string;
    let x = centreX(first) + (ports("out", first, (segment) => segment[1]).get(chain[1] as string) ?? 0);
    let y = at(first).y + NODE_HEIGHT;
    parts.push(`M ${x} ${y}`);
    let labelPoint: { x: number; y: number } | undefined;
    for (let i = 1; i < chain.length; i += 1) {
      const id = chain[i] as string;
      const last = i === chain.length - 1;
      const tx = centreX(id) + (last ? (ports("in", id, (segment) => segment[0]).get(chain[i - 1] as string) ?? 0) : 0);
      const ty = at(id).y;
      const half = (ty - y) / 2;
      parts.push(`C ${x} ${y + half} ${tx} ${ty - half} ${tx} ${ty}`);
      if (chain.length === 2) {
        labelPoint = { x: bezier(x, x, tx, tx, LABEL_AT), y: bezier(y, y + half, ty - half, ty, LABEL_AT) };
      }
      x = tx;
      y = ty;
      if (!last) {
        parts.push(`L ${x} ${y + NODE_HEIGHT}`);
        y += NODE_HEIGHT;
      }
    }
    // A long edge is labelled in its first waypoint, a free slot of the row it crosses.
    const waypoint = chain[1] as string;
    const point = labelPoint ?? { x: centreX(waypoint), y: at(waypoint).y + NODE_HEIGHT / 2 };
    return { transition, path: parts.join(" "), label: labelBox(lines, point.x, point.y), back: false };
  });

  const right =
    backDepth === 0 ? 0 : Math.max(...edges.filter((e) => e.back).map((e) => e.label.x + e.label.width)) + MARGIN;
  return { width: Math.max(bodyWidth, right), height: bodyHeight + LEGEND_HEIGHT, nodes, edges };
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const STYLE = `
.sm-node rect { fill: #f8fafc; stroke: #334155; stroke-width: 1.5; }
.sm-node.terminal rect.inner { fill: none; stroke: #334155; stroke-width: 1; }
.sm-node.initial rect { fill: #eff6ff; }
.sm-node text { font: 600 12.5px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; fill: #0f172a; }
.sm-edge path { fill: none; stroke: #475569; stroke-width: 1.6; }
.sm-edge.design path { stroke-dasharray: 7 5; }
.sm-label rect { fill: #ffffff; fill-opacity: 0.92; stroke: #cbd5e1; stroke-width: 0.8; }
.sm-label text, .sm-legend text, .sm-start text { font: 12px system-ui, "DejaVu Sans", Arial, sans-serif; fill: #1e293b; }
.sm-label text .notification { font: 11px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; fill: #1d4ed8; }
.sm-start circle { fill: #0f172a; }
.sm-legend path { stroke: #475569; stroke-width: 1.6; }
.sm-legend path.design { stroke-dasharray: 7 5; }
`;

/** The state machine as a standalone SVG document (also valid inline in HTML). */
export function renderStateMachineSvg(
  machine: StateMachine,
  layout: StateMachineLayout = layoutStateMachine(machine),
): string {
  const out: string[] = [];
  const { width, height } = layout;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="state-machine" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="sm-title sm-desc">`,
    `<title id="sm-title">Application state machine</title>`,
    `<desc id="sm-desc">${escapeXml(
      layout.edges
        .map(
          (e) =>
            `${e.transition.from} to ${e.transition.to} when ${e.transition.trigger}, notification ${e.transition.notifications.v1}`,
        )
        .join("; "),
    )}.</desc>`,
    `<style>${STYLE}</style>`,
    `<defs><marker id="sm-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path d="M 0 0 L 10 5 L 0 10 z" fill="#475569"/></marker></defs>`,
  );

  for (const node of layout.nodes.filter((n) => n.initial)) {
    const cx = node.x + node.width / 2;
    const cy = node.y - START_SPACE + 16;
    out.push(
      `<g class="sm-start" data-to="${escapeXml(node.status)}"><circle cx="${cx}" cy="${cy}" r="7"/>`,
      `<path d="M ${cx} ${cy + 7} L ${cx} ${node.y}" stroke="#475569" stroke-width="1.6" marker-end="url(#sm-arrow)"/>`,
      `<text x="${cx + 12}" y="${cy + 4}">submitted (POST /v0/applications)</text></g>`,
    );
  }

  for (const edge of layout.edges) {
    const t = edge.transition;
    const kind = t.source === "seed" ? "seed" : "design";
    out.push(
      `<g class="sm-edge ${kind}" data-from="${escapeXml(t.from)}" data-to="${escapeXml(t.to)}" data-notification="${escapeXml(t.notifications.v1)}">`,
      `<title>${escapeXml(`${t.from} → ${t.to}: ${t.trigger} (${t.notifications.v1}${t.notifications.v0 ? `, v0 ${t.notifications.v0}` : ""}; ${t.source})`)}</title>`,
      `<path d="${edge.path}" marker-end="url(#sm-arrow)"/></g>`,
    );
  }

  for (const node of layout.nodes) {
    const classes = ["sm-node", node.terminal ? "terminal" : "", node.initial ? "initial" : ""]
      .filter(Boolean)
      .join(" ");
    out.push(
      `<g class="${classes}" data-status="${escapeXml(node.status)}">`,
      `<rect x="${node.x}" y="${node.y}" width="${node.width}" height="${node.height}" rx="10"/>`,
      node.terminal
        ? `<rect class="inner" x="${node.x + 4}" y="${node.y + 4}" width="${node.width - 8}" height="${node.height - 8}" rx="7"/>`
        : "",
      `<text x="${node.x + node.width / 2}" y="${node.y + node.height / 2}" text-anchor="middle" dominant-baseline="central">${escapeXml(node.status)}</text>`,
      `</g>`,
    );
  }

  for (const edge of layout.edges) {
    const { label, transition: t } = edge;
    const cx = label.x + label.width / 2;
    out.push(
      `<g class="sm-label" data-from="${escapeXml(t.from)}" data-to="${escapeXml(t.to)}">`,
      `<rect x="${label.x}" y="${label.y}" width="${label.width}" height="${label.height}" rx="4"/>`,
      `<text text-anchor="middle">`,
      ...label.lines.map(
        (line, i) =>
          `<tspan x="${cx}" y="${label.y + LABEL_PADDING + LINE * i + 11}"${line.kind === "notification" ? ' class="notification"' : ""}>${escapeXml(line.text)}</tspan>`,
      ),
      `</text></g>`,
    );
  }

  const ly = height - LEGEND_HEIGHT + 18;
  out.push(
    `<g class="sm-legend">`,
    `<path d="M ${MARGIN} ${ly} L ${MARGIN + 40} ${ly}"/><text x="${MARGIN + 48}" y="${ly + 4}">stated by the requirement (seed)</text>`,
    `<path class="design" d="M ${MARGIN + 290} ${ly} L ${MARGIN + 330} ${ly}"/><text x="${MARGIN + 338}" y="${ly + 4}">our design where the requirement is silent</text>`,
    `<text x="${MARGIN}" y="${ly + 26}">Each label: the trigger, then the version 1 notification it emits. Double border: a final status.</text>`,
    `</g>`,
    `</svg>`,
  );
  return out.filter(Boolean).join("\n");
}

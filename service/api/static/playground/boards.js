// One SVG board per game, drawn from a seat's view (the `state` the API returns, ALL-4) and the
// catalog's card data. Every place a move can point at carries `data-target` (targetOf below);
// play.js turns the targets of the current legal moves into buttons. Each board also returns
// its text alternative: one line per thing drawn.

const SVG = "http://www.w3.org/2000/svg";
export const SEAT_COLOURS = ["#c0392b", "#2471a3", "#b7950b", "#7d3c98", "#1e8449"];

export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children) {
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

function text(x, y, content, attributes = {}) {
  return el("text", { x, y, "font-size": 12, "text-anchor": "middle", ...attributes }, content);
}

function titled(node, title) {
  node.prepend(el("title", {}, title));
  return node;
}

// Where on the board a move points: the same key its board gives that place.
export function targetOf(move) {
  if ("row" in move && "col" in move) return `cell:${move.row}:${move.col}`;
  if ("cell" in move) return `cell:${move.cell}`;
  if ("slot" in move) return `slot:${move.slot}`;
  if ("card" in move) return `card:${move.card}`;
  if (move.type === "place") return `side:${move.side}`;
  if ("colour" in move) return `colour:${move.colour}`;
  return null;
}

function board(width, height, label) {
  return el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "board",
    role: "group",
    "aria-label": label,
  });
}

// Treeline (docs/rules/treeline.md): a grid of Town and Forest cards, a castle left of each row
// and above each column, tokens on Forest cards.
function treeline(state) {
  const size = 56;
  const margin = 34;
  const svg = board(margin + state.cols * size + 4, margin + state.rows * size + 4, "Treeline grid");
  const lines = [];
  for (const castle of state.castles) {
    const across = castle.line === "row";
    const x = across ? 4 : margin + castle.index * size + size / 2 - 13;
    const y = across ? margin + castle.index * size + size / 2 - 13 : 4;
    const owner = castle.owner === null ? "unclaimed" : `seat ${castle.owner}`;
    const where = `${across ? "row" : "column"} ${castle.index}`;
    const line = `castle ${castle.letter} (${castle.points} pts) at ${where}: ${owner}, ${castle.stationed.length} stationed`;
    lines.push(line);
    svg.append(
      titled(
        el(
          "g",
          {},
          el("rect", {
            x, y, width: 26, height: 26, rx: 4,
            fill: castle.owner === null ? "#ddd" : seatColour(castle.owner),
            stroke: "#555",
          }),
          text(x + 13, y + 17, castle.letter, { fill: castle.owner === null ? "#222" : "#fff" }),
        ),
        line,
      ),
    );
  }
  for (const cell of state.cells) {
    const x = margin + cell.col * size;
    const y = margin + cell.row * size;
    const fill = cell.kind === "start" ? "#6e4b1f" : cell.kind === "glade" ? "#a9d18e" : cell.forest ? "#4e8f3a" : "#efe4c8";
    const what = cell.kind === "start" ? "start" : cell.kind === "glade" ? `glade ${cell.glade}` : cell.forest ? "forest" : "town";
    const tokens = cell.tokens.map((t) => `seat ${t.seat}${t.energized ? " energized" : ""}`);
    const line = `(${cell.row},${cell.col}) ${what}, ${cell.spaces} spaces${tokens.length ? `: ${tokens.join(", ")}` : ""}`;
    lines.push(line);
    const group = el(
      "g",
      { "data-target": `cell:${cell.row}:${cell.col}` },
      el("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 5, fill, stroke: "#6b5b3e" }),
    );
    if (cell.kind === "land" || cell.spaces) {
      group.append(text(x + 10, y + 15, String(cell.spaces), { "font-size": 11, fill: cell.forest ? "#fff" : "#444" }));
    }
    if (cell.glade) group.append(text(x + size / 2, y + 16, "glade", { "font-size": 9 }));
    cell.tokens.forEach((token, i) => {
      group.append(
        el("circle", {
          cx: x + 12 + (i % 3) * 16, cy: y + 30 + Math.floor(i / 3) * 14, r: 6,
          fill: seatColour(token.seat),
          stroke: token.energized ? "#ffd54f" : "#fff",
          "stroke-width": token.energized ? 3 : 1,
        }),
      );
    });
    svg.append(titled(group, line));
  }
  return { svg, lines };
}

const TREELINGS_COLOURS = {
  blue: "#2e6fd1", brown: "#8d5a2b", green: "#3c9a3c", purple: "#8e44ad", red: "#d0392b", yellow: "#e0b000",
};

// Treelings (docs/rules/treelings.md): the market, the cards still to place, one district (a
// row of trees) per seat; new trees are placed at either end of the acting seat's district.
function treelings(state) {
  const unit = 14;
  const rowHeight = 110;
  const top = 90;
  const longest = Math.max(3, ...state.districts.map((d) => d.trees.length));
  const width = Math.max(420, 90 + longest * 40 + 60);
  const svg = board(width, top + state.districts.length * rowHeight, "Treelings market and districts");
  const lines = [];
  svg.append(text(40, 16, "market", { "font-size": 11 }));
  state.market.forEach((pile, i) => {
    const x = 10 + i * 56;
    const line = `market: ${pile.count} ${pile.colour}`;
    lines.push(line);
    svg.append(
      titled(
        el(
          "g",
          { "data-target": `colour:${pile.colour}` },
          el("rect", { x, y: 24, width: 48, height: 48, rx: 6, fill: TREELINGS_COLOURS[pile.colour], stroke: "#333" }),
          text(x + 24, 54, String(pile.count), { fill: "#fff", "font-size": 18 }),
        ),
        line,
      ),
    );
  });
  state.toPlace.forEach((tree, i) => {
    const x = width - 40 - i * 34;
    lines.push(`to place: ${tree.colour} x${tree.height}`);
    svg.append(
      titled(
        el("rect", { x, y: 30, width: 26, height: 36, rx: 4, fill: TREELINGS_COLOURS[tree.colour], stroke: "#000", "stroke-dasharray": "4 2" }),
        `to place: ${tree.colour} x${tree.height}`,
      ),
    );
  });
  const acting = state.toAct[0];
  state.districts.forEach((district, row) => {
    const base = top + row * rowHeight + rowHeight - 14;
    svg.append(text(30, base - 40, `seat ${district.seat}`, { fill: seatColour(district.seat) }));
    const trees = district.trees.map((t) => `${t.colour} ${t.height}`);
    lines.push(`seat ${district.seat} district, left to right: ${trees.join(", ") || "empty"}`);
    district.trees.forEach((tree, i) => {
      const height = Math.min(rowHeight - 24, tree.height * unit);
      svg.append(
        titled(
          el("g", {},
            el("rect", { x: 90 + i * 40, y: base - height, width: 30, height, rx: 3, fill: TREELINGS_COLOURS[tree.colour] }),
            text(105 + i * 40, base + 12, String(tree.height), { "font-size": 10 })),
          `seat ${district.seat}: ${tree.colour} tree of ${tree.height}`,
        ),
      );
    });
    if (district.seat === acting && state.phase === "place") {
      for (const side of ["left", "right"]) {
        const x = side === "left" ? 62 : 90 + district.trees.length * 40 + 4;
        svg.append(
          titled(
            el("g", { "data-target": `side:${side}` },
              el("rect", { x, y: base - 60, width: 24, height: 60, rx: 4, fill: "#f4f1e6", stroke: "#999", "stroke-dasharray": "3 3" }),
              text(x + 12, base - 26, side === "left" ? "◀" : "▶")),
            `place at the ${side} end`,
          ),
        );
      }
    }
  });
  return { svg, lines };
}

const TREETOPIA_TYPES = { pearl: "#b0bec5", mushroom: "#a1887f", palm: "#81c784", spiral: "#ba68c8" };

function treetopiaCard(card, x, y, key, caption, cards) {
  const data = cards[card];
  const group = el(
    "g",
    { "data-target": key },
    el("rect", { x, y, width: 54, height: 70, rx: 5, fill: TREETOPIA_TYPES[data?.type] ?? "#ccc", stroke: "#333" }),
    text(x + 27, y + 16, data?.environment ?? "?", { "font-size": 9 }),
    text(x + 27, y + 36, data?.type ?? `#${card}`, { "font-size": 10 }),
    text(x + 27, y + 56, `hope ${data?.hope ?? "?"}`, { "font-size": 9 }),
  );
  return titled(group, `${caption}: ${data?.name ?? `card ${card}`} (${data?.needText ?? ""})`);
}

// Treetopia (docs/rules/treetopia.md): the sanctuary in its fixed frame of 9 columns and
// 2H-1 rows (TT-5), the pool, and the hands the viewer may see.
function treetopia(state, catalog) {
  const cards = Object.fromEntries((catalog.cards.cards ?? []).map((c) => [c.id, c]));
  const frameRows = 2 * state.sanctuaryRows - 1;
  const size = 46;
  const handTop = frameRows * size + 20;
  const shown = state.seats.filter((s) => s.hand.length > 0 && s.hand[0] !== null);
  const width = Math.max(9 * size + 4, 20 + (state.pool.length + state.eyeCards.length + 1) * 60);
  const svg = board(width, handTop + 100 + shown.length * 90, "Treetopia sanctuary, pool and hands");
  const lines = [];
  const trees = new Map(state.sanctuary.map((t) => [`${t.row}:${t.col}`, t]));
  for (let row = 0; row < frameRows; row++) {
    for (let col = 0; col < 9; col++) {
      const tree = trees.get(`${row}:${col}`);
      const x = 2 + col * size;
      const y = 2 + row * size;
      const group = el("g", { "data-target": `cell:${row}:${col}` },
        el("rect", { x, y, width: size - 2, height: size - 2, rx: 4, fill: tree ? TREETOPIA_TYPES[cards[tree.card]?.type] ?? "#ccc" : "#f3f0e4", stroke: tree ? seatColour(tree.seat) : "#ddd", "stroke-width": tree ? 3 : 1 }));
      if (tree) {
        const line = `(${row},${col}) seat ${tree.seat}: ${cards[tree.card]?.name ?? tree.card}, ${tree.points} pts`;
        lines.push(line);
        group.append(text(x + size / 2, y + 27, String(tree.points), { "font-size": 14 }));
        titled(group, line);
      } else {
        titled(group, `(${row},${col}) empty`);
      }
      svg.append(group);
    }
  }
  let x = 4;
  svg.append(text(30, handTop - 4, "pool", { "font-size": 11 }));
  for (const card of state.pool) {
    lines.push(`pool: ${cards[card]?.name ?? card}`);
    svg.append(treetopiaCard(card, x, handTop, `card:${card}`, "pool", cards));
    x += 60;
  }
  for (const card of state.eyeCards) {
    lines.push(`seen with the Eye: ${cards[card]?.name ?? card}`);
    svg.append(treetopiaCard(card, x, handTop, `card:${card}`, "Eye", cards));
    x += 60;
  }
  shown.forEach((seat, i) => {
    const y = handTop + 90 + i * 90;
    svg.append(text(30, y + 4, `seat ${seat.seat}`, { fill: seatColour(seat.seat), "font-size": 11 }));
    seat.hand.forEach((card, j) => {
      lines.push(`seat ${seat.seat} hand: ${cards[card]?.name ?? card}`);
      svg.append(treetopiaCard(card, 4 + j * 60, y + 10, `card:${card}`, `seat ${seat.seat} hand`, cards));
    });
  });
  lines.push(`draw pile ${state.drawPile}, discard ${state.discard.length}, symbiosis ${state.symbiosis.join(" + ")}`);
  return { svg, lines };
}

const AVENUE_TREES = { zelkova: "#7cb342", birch: "#e0e0e0", sakura: "#f48fb1", maple: "#ef6c00", ginkgo: "#fdd835" };
const ANIMAL_LETTERS = { squirrel: "S", duck: "D", fox: "F", deer: "R" };

function avenueCard(card, x, y, size, cards) {
  const data = cards[card];
  return [
    el("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 5, fill: AVENUE_TREES[data?.tree] ?? "#ccc", stroke: "#555" }),
    text(x + size / 2, y + 16, `${data?.value ?? "?"}`, { "font-size": 13 }),
    text(x + size / 2, y + size - 8, data?.tree ?? "", { "font-size": 9 }),
  ];
}

// The Tree Lined Avenue (docs/rules/avenue.md): the 6x6 park (cell = row * 6 + column), its
// cards, animal tiles and gardeners, and the row of cards to choose from.
function avenue(state, catalog) {
  const cards = Object.fromEntries(catalog.cards.cards.map((c) => [c.id, c]));
  const size = 60;
  const side = catalog.cards.size ?? 6;
  const rowTop = side * size + 28;
  const svg = board(Math.max(side * size + 4, state.row.length * (size + 8) + 8), rowTop + size + 8, "Avenue park and card row");
  const lines = [];
  const tiles = new Map();
  for (const tile of state.tiles) {
    if (tile.cell >= 0) tiles.set(tile.cell, [...(tiles.get(tile.cell) ?? []), tile]);
  }
  const gardeners = new Map();
  for (const seat of state.seats) {
    for (const cell of seat.gardeners) if (cell >= 0) gardeners.set(cell, seat.seat);
  }
  state.park.forEach((card, cell) => {
    const x = 2 + (cell % side) * size;
    const y = 2 + Math.floor(cell / side) * size;
    const group = el("g", { "data-target": `cell:${cell}` });
    const parts = [];
    if (card >= 0) {
      group.append(...avenueCard(card, x, y, size, cards));
      parts.push(`${cards[card]?.tree} ${cards[card]?.value}`);
    } else {
      group.append(el("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 5, fill: "#f5f2e8", stroke: "#ddd" }));
    }
    (tiles.get(cell) ?? []).forEach((tile, i) => {
      group.append(el("circle", { cx: x + 12 + i * 14, cy: y + 30, r: 7, fill: "#fff", stroke: "#333" }),
        text(x + 12 + i * 14, y + 34, ANIMAL_LETTERS[tile.animal], { "font-size": 9 }));
      parts.push(`${tile.animal} tile`);
    });
    if (gardeners.has(cell)) {
      const seat = gardeners.get(cell);
      group.append(el("rect", { x: x + size - 20, y: y + 22, width: 14, height: 18, rx: 7, fill: seatColour(seat), stroke: "#fff" }));
      parts.push(`gardener of seat ${seat}`);
    }
    const line = `r${Math.floor(cell / side) + 1}c${(cell % side) + 1} (cell ${cell}): ${parts.join(", ") || "empty"}`;
    if (parts.length) lines.push(line);
    svg.append(titled(group, line));
  });
  svg.append(text(40, rowTop - 8, "card row", { "font-size": 11 }));
  state.row.forEach((card, slot) => {
    if (card < 0) return;
    const group = el("g", { "data-target": `slot:${slot}` }, ...avenueCard(card, 4 + slot * (size + 8), rowTop, size, cards));
    const line = `row slot ${slot}: ${cards[card]?.tree} ${cards[card]?.value}`;
    lines.push(line);
    svg.append(titled(group, line));
  });
  return { svg, lines };
}

const BOARDS = { TREELINE: treeline, TREELINGS: treelings, TREETOPIA: treetopia, TREE_LINED_AVENUE: avenue };

// A game without a board of its own yet (a new game, docs/architecture.md "Adding a game"): its
// view's fields as lines of text; its legal moves are still listed and played beside the board.
function generic(state) {
  const lines = Object.entries(state).map(([name, value]) => `${name}: ${JSON.stringify(value)}`);
  const svg = board(480, 16 + lines.length * 18, "the game's view");
  lines.forEach((line, i) => {
    svg.append(text(8, 20 + i * 18, line, { "text-anchor": "start", "font-size": 11 }));
  });
  return { svg, lines };
}

export function drawBoard(kind, state, catalog) {
  return (BOARDS[kind] ?? generic)(state, catalog);
}

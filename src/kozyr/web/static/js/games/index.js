// The games the page shows, by the name the server sends: each game's facts from the
// server's Game specs (GET /api/game-facts: titles, player counts, rank order, stake kinds,
// score columns, panels) joined with its module here (games/imperial.js, games/emperor.js),
// which draws what differs between the games behind one interface. Nothing else in the
// page compares a game's name: it asks gameOf(name).

import * as emperor from "./emperor.js";
import * as imperial from "./imperial.js";

const MODULES = { imperial, emperor };
const GAMES = new Map();

/** Takes the server's facts (the `games` of GET /api/game-facts), in the server's order. */
export function setGames(facts) {
  GAMES.clear();
  for (const f of facts) {
    const module = MODULES[f.name];
    if (module) GAMES.set(f.name, Object.freeze({ ...module, ...f }));
  }
}

/** Fetches the facts once, trying again while the server cannot be reached. */
export async function loadGames(api, { wait = (ms) => new Promise((r) => setTimeout(r, ms)) } = {}) {
  for (let delay = 500; ; delay = Math.min(delay * 2, 8000)) {
    try {
      const r = await api("GET", "/api/game-facts");
      setGames(r.games);
      return;
    } catch (e) {
      await wait(delay);
    }
  }
}

/** A game's facts and drawing functions; throws for a game the server did not name. */
export function gameOf(name) {
  const game = GAMES.get(name);
  if (!game) throw new Error(`unknown game: ${name}`);
  return game;
}

/** Every game, in the server's order. */
export function allGames() {
  return [...GAMES.values()];
}

/** A game's name in the page's language ("Imperial" / "Империал"). */
export function gameTitle(name, language) {
  const title = gameOf(name).title;
  return title[language] || title.en;
}

/** The player counts a form offers: the default first, then the others ascending. */
export function playerChoices(name) {
  const g = gameOf(name);
  return [g.default_players, ...g.players.filter((n) => n !== g.default_players)];
}

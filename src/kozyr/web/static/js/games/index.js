// The games the page shows, by the name the server sends: each game's facts from the
// server's Game specs (GET /api/game-facts: titles, player counts, rank order, stake kinds,
// score columns, panels) joined with its module here (games/imperial.js, games/emperor.js),
// which draws what differs between the games behind one interface. Nothing else in the
// page compares a game's name: it asks gameOf(name).

import { t } from "../i18n.js";
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

/** A computer level's rating on the players' scale at a game of `players` as shown
 * ("1650", or "1650?" while provisional; from arena games between the levels:
 * GET /api/game-facts, level_ratings), or null while none has been computed for that game
 * and player count. */
export function levelRating(name, players, level) {
  const r = gameOf(name).level_ratings?.[String(players)]?.[String(level)];
  return r && typeof r.rating === "number" ? `${r.rating}${r.provisional ? "?" : ""}` : null;
}

/** A computer level as the forms offer it: its name, and its rating on the players' scale
 * where one is known for the game and player count ("3: club player ≈ 1650"; "1650?" while
 * its arena games are still too few to settle it, as a new player's). */
export function levelLabel(game, players, level) {
  const name = t(`level_${level}`);
  const rating = levelRating(game, players, level);
  return rating == null ? name : t("level_rated", { level: name, rating });
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

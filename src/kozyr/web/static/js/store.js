// The page's state in one place: who is signed in, the socket, the screen, the table or
// replay on screen and the lobby's paging. Read through `store` (read-only: setting a
// property throws); changed only by update() for the whole state and change() for one of
// its records (the table or the replay on screen), so that every change is a call one can
// find. window.kozyr shows the same read-only state (for people curious in the console,
// and for the browser tests).

const state = {
  user: null,
  socket: null,
  connState: null,
  connDetail: null,
  screen: null,
  table: null, // the table being played or watched: {id, invite, info, you, seq, view, events, ...}
  tableView: null,
  bets: null,
  talk: null, // the table talk panel (#44, js/talk.js)
  overShown: null,
  replay: null, // the replay on screen: {id, data, view, names, step, timer, recordText, verdict, review}
  lobbyTimer: null,
  lobbyWant: 50, // how many tables the lobby shows; "More tables" raises it a page at a time
  lobbyTables: null,
};

function refuse(key) {
  throw new TypeError(`kozyr: the page's state changes through update(), not by setting ${String(key)}`);
}

export const store = new Proxy(state, {
  set: (_, key) => refuse(key),
  deleteProperty: (_, key) => refuse(key),
  defineProperty: (_, key) => refuse(key),
});

/** Changes parts of the state: update({ screen: "lobby" }). */
export function update(changes) {
  for (const key of Object.keys(changes)) {
    if (!Object.hasOwn(state, key)) throw new Error(`kozyr: no such part of the page's state: ${key}`);
  }
  Object.assign(state, changes);
}

/** Changes a record of the state (the table or the replay on screen, or one a callback
 * kept that may since have left the screen): change(store.table, { seq: 12 }). */
export function change(record, changes) {
  Object.assign(record, changes);
  return record;
}

window.kozyr = store;
